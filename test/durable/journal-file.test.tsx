import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  JuneError,
  run,
  decodeJournal,
  encodeRecord,
  fileJournalStore,
  loadJournal,
  type JournalRecord,
} from 'june';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunDirectory } from '../../src/host/run-directory.js';
import {
  firstEvent,
  isApprovalRequest,
  Release,
  releaseTools,
  releaseTurns,
  turnModel,
} from './support.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'june-journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const header = (runId: string): JournalRecord => ({
  type: 'journal',
  version: 1,
  runId,
  workflow: 'w.tsx',
  startedAt: '2026-01-02T03:04:05.000Z',
});
const resume: JournalRecord = { type: 'resume', at: '2026-01-02T03:04:06.000Z' };
const errorOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as JuneError;
  }
  throw new Error('expected an error');
};
const rejectionOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as JuneError,
  );

describe('the file journal store', () => {
  it('appends one JSON line per record to <dir>/<runId>/journal.jsonl, and reads and lists them', async () => {
    const store = fileJournalStore({ dir });
    await store.append('r1', header('r1'));
    await Promise.all([store.append('r1', resume), store.append('r2', header('r2'))]);
    const file = join(dir, 'r1', 'journal.jsonl');
    expect(readFileSync(file, 'utf8').split('\n')).toEqual([
      encodeRecord(header('r1')),
      encodeRecord(resume),
      '',
    ]);
    expect(await store.read('r1')).toEqual([header('r1'), resume]);
    expect(await store.read('unknown')).toEqual([]);
    expect(await store.list()).toEqual(['r1', 'r2']);
    expect(store.describe?.('r1')).toBe(relative(process.cwd(), file));
    await expect(store.read('../escape')).rejects.toMatchObject({ code: 'journal-run-id-invalid' });
  });

  it('gives back Dates (stream timestamps, tool outputs) and bytes as they were', () => {
    const record: JournalRecord = {
      type: 'model-call',
      step: 's',
      index: 0,
      mode: 'stream',
      requestHash: 'h',
      request: {},
      answer: {
        version: 1,
        spec: 'v4',
        parts: [
          {
            type: 'response-metadata',
            id: 'r',
            modelId: 'm',
            timestamp: new Date('2026-01-02T03:04:05Z'),
          },
          {
            type: 'file',
            mediaType: 'image/png',
            data: { type: 'data', data: new Uint8Array([1, 2, 3]) },
          },
        ],
      },
      at: 'now',
    };
    const [, back] = decodeJournal(`${encodeRecord(header('r'))}\n${encodeRecord(record)}\n`, 'x');
    const parts = (back as Extract<JournalRecord, { type: 'model-call' }>).answer.parts!;
    expect(parts[0]).toEqual({
      type: 'response-metadata',
      id: 'r',
      modelId: 'm',
      timestamp: new Date('2026-01-02T03:04:05Z'),
    });
    expect((parts[1] as { data: { data: Uint8Array } }).data.data).toEqual(
      new Uint8Array([1, 2, 3]),
    );
  });
});

describe('corrupt and cut-off journals', () => {
  const write = (runId: string, text: string) => {
    mkdirSync(join(dir, runId), { recursive: true });
    writeFileSync(join(dir, runId, 'journal.jsonl'), text);
    return relative(process.cwd(), join(dir, runId, 'journal.jsonl'));
  };

  it('a bad line in the middle fails with journal-corrupt naming the file and the line', async () => {
    const shown = write(
      'bad',
      `${encodeRecord(header('bad'))}\n{"type":"resume","at":\n${encodeRecord(resume)}\n`,
    );
    const error = await rejectionOf(fileJournalStore({ dir }).read('bad'));
    expect(error?.code).toBe('journal-corrupt');
    expect(error?.message).toMatch(
      new RegExp(
        `^june: ${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is corrupt at line 2: it is not JSON \\(.+\\)\\. Fix or remove that line, or start a new run\\.$`,
      ),
    );
  });

  it('a whole last line that is not a record is corrupt too; so is a journal without its header', async () => {
    write('odd', `${encodeRecord(header('odd'))}\n{"type":"launch"}\n`);
    expect((await rejectionOf(fileJournalStore({ dir }).read('odd')))?.message).toMatch(
      /is corrupt at line 2: it has the type "launch", not one of journal, model-call/,
    );
    write('headless', `${encodeRecord(resume)}\n`);
    expect((await rejectionOf(fileJournalStore({ dir }).read('headless')))?.message).toMatch(
      /is corrupt at line 1: the first record has the type "resume"; a journal starts with a \{"type":"journal"\} header/,
    );
  });

  it('a journal of another schema version fails with journal-version-unsupported', () => {
    const error = errorOf(() =>
      decodeJournal('{"type":"journal","version":7,"runId":"r"}\n', 'j.jsonl'),
    );
    expect(error.code).toBe('journal-version-unsupported');
    expect(error.message).toBe(
      'june: j.jsonl has journal version 7; this June reads versions 1 to 6 (it writes 6). Use the June version that wrote it, or start a new run.',
    );
  });

  it('a last line cut off by a crash is ignored, and cut away before the next record is appended', async () => {
    const cut = encodeRecord(resume).slice(0, 12);
    write('crash', `${encodeRecord(header('crash'))}\n${cut}`);
    const store = fileJournalStore({ dir });
    expect(await store.read('crash')).toEqual([header('crash')]);
    await store.append('crash', resume);
    expect(readFileSync(join(dir, 'crash', 'journal.jsonl'), 'utf8')).toBe(
      `${encodeRecord(header('crash'))}\n${encodeRecord(resume)}\n`,
    );
  });

  it('loadJournal names a missing file; an empty one has no header', async () => {
    expect((await rejectionOf(loadJournal(join(dir, 'none.jsonl'))))?.code).toBe(
      'journal-unreadable',
    );
    writeFileSync(join(dir, 'empty.jsonl'), '');
    expect((await rejectionOf(loadJournal(join(dir, 'empty.jsonl'))))?.message).toMatch(
      /is empty; a journal starts with a \{"type":"journal"\} header line/,
    );
  });

  it('a run whose journal was cut off mid-write by a crash resumes from the last whole record', async () => {
    const store = fileJournalStore({ dir });
    const tools = releaseTools();
    const handle = run(<Release model={turnModel(releaseTurns)} tools={tools} />, {
      journal: store,
    });
    await firstEvent(handle, isApprovalRequest);
    handle.abort('stop');
    await handle.result.catch(() => {});
    // the crash: half of a record, no newline
    appendFileSync(
      join(dir, handle.runId, 'journal.jsonl'),
      '{"type":"tool-call","step":"plan","toolC',
    );

    // a new process: a new store on the same folder
    const second = turnModel(releaseTurns);
    const result = await run(<Release model={second} tools={tools} />, {
      journal: fileJournalStore({ dir }),
      resume: handle.runId,
      onApproval: () => true,
    }).result;
    expect(result.output).toBe('Released 1.2.');
    expect(second.calls).toHaveLength(3);
    expect(tools.ran).toEqual(['lookup:1.2', 'check:1.2', 'deploy:prod']);
    const records = await store.read(handle.runId);
    expect(records.at(-1)).toMatchObject({ type: 'run-finish', status: 'succeeded' });
    expect(readFileSync(join(dir, handle.runId, 'journal.jsonl'), 'utf8')).not.toContain(
      '"toolC\n',
    );
  });

  it('a corrupt journal fails the resume before any model call', async () => {
    const store = fileJournalStore({ dir });
    const handle = run(<Release model={turnModel(releaseTurns)} tools={releaseTools()} />, {
      journal: store,
    });
    await firstEvent(handle, isApprovalRequest);
    handle.abort('stop');
    await handle.result.catch(() => {});
    const file = join(dir, handle.runId, 'journal.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[2] = lines[2]!.slice(0, 40);
    writeFileSync(file, lines.join('\n'));

    const model = turnModel(releaseTurns);
    const error = await rejectionOf(
      run(<Release model={model} tools={releaseTools()} />, {
        journal: store,
        resume: handle.runId,
      }).result,
    );
    expect(error?.code).toBe('journal-corrupt');
    expect(error?.message).toContain(`${relative(process.cwd(), file)} is corrupt at line 3`);
    expect(model.calls).toEqual([]);
  });
});

describe("Studio's run directory", () => {
  it('lists the trace <runId>.json and ignores the journal folder <runId>/ next to it', async () => {
    const store = fileJournalStore({ dir });
    const result = await run(<Release model={turnModel(releaseTurns)} tools={releaseTools()} />, {
      journal: store,
      runId: 'r-studio',
      onApproval: () => true,
    }).result;
    writeFileSync(join(dir, 'r-studio.json'), JSON.stringify(result.trace));
    const runs = new RunDirectory({ dir });
    const list = await runs.list();
    runs.close();
    expect(list.map((entry) => entry.runId)).toEqual(['r-studio']);
    expect(list[0]).not.toHaveProperty('unreadable');
  });
});
