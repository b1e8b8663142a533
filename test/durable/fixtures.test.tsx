import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, fileJournalStore, JOURNAL_VERSION, loadJournal } from 'june';
import { describe, expect, it } from 'vitest';
import { Release, releaseTools, releaseTurns, turnModel, unreachableModel } from './support.js';

// Sample journals, one folder per schema version, written by test/durable/support.tsx's
// Release workflow. They must keep loading (and replaying) as June changes.
const fixtures = fileURLToPath(new URL('../fixtures/journals/', import.meta.url));
const versions = readdirSync(fixtures).filter((name) => /^v\d+$/.test(name));

describe('stored sample journals', () => {
  it(`include one folder per schema version up to the current one (v${JOURNAL_VERSION})`, () => {
    expect(versions).toContain(`v${JOURNAL_VERSION}`);
  });

  for (const version of versions) {
    for (const name of readdirSync(join(fixtures, version)).filter((file) =>
      file.endsWith('.jsonl'),
    )) {
      it(`${version}/${name} still loads`, async () => {
        const records = await loadJournal(join(fixtures, version, name));
        expect(records[0]).toMatchObject({ type: 'journal', version: Number(version.slice(1)) });
        expect(records.length).toBeGreaterThan(1);
      });
    }
  }

  it.each(['v1', 'v2', 'v3', 'v4', 'v5'])(
    '%s/release.jsonl replays: the same answer with no model and no tool run',
    async (version) => {
      const tools = releaseTools();
      const result = await run(<Release model={unreachableModel()} tools={tools} />, {
        replay: join(fixtures, version, 'release.jsonl'),
        replayTools: true,
      }).result;
      expect(result.output).toBe('Released 1.2.');
      expect(tools.ran).toEqual([]);
    },
  );

  it('model answers of versions 1 to 3 (AI SDK 6, spec v3) are read as June answer records of spec v3; v4 and v5 records keep theirs', async () => {
    for (const version of ['v1', 'v2', 'v3', 'v4', 'v5']) {
      const records = await loadJournal(join(fixtures, version, 'release.jsonl'));
      const answers = records.flatMap((record) =>
        record.type === 'model-call' ? [record.answer] : [],
      );
      expect(answers.length).toBeGreaterThan(0);
      for (const answer of answers) {
        expect(answer).toMatchObject({ version: 1, spec: version >= 'v4' ? 'v4' : 'v3' });
        expect(answer.parts ?? answer.result).toBeDefined();
      }
      for (const record of records) expect(record).not.toHaveProperty('parts');
    }
  });

  it('v5/release.jsonl keeps an approval with an edited input: it replays with the edit, by whom and when', async () => {
    const records = await loadJournal(join(fixtures, 'v5', 'release.jsonl'));
    expect(records.find((record) => record.type === 'approval-request')).toMatchObject({
      tool: 'deploy',
      input: { env: 'prod' },
    });
    expect(records.find((record) => record.type === 'approval-answer')).toMatchObject({
      approved: true,
      input: { env: 'staging' },
      answeredBy: 'ana',
      answeredAt: '2026-12-02T09:30:00.000Z',
    });
    const tools = releaseTools();
    const result = await run(<Release model={unreachableModel()} tools={tools} />, {
      replay: records,
      replayTools: true,
    }).result;
    expect(tools.ran).toEqual([]);
    const text = JSON.stringify(result.trace);
    expect(text).toContain('"status":"approved","input":{"env":"staging"}');
    expect(text).toContain('"output":"deployed to staging"');
  });

  it('v1 records are read as v2: composite and tool calls keyed by place and ordinal', async () => {
    const v1 = (await loadJournal(join(fixtures, 'v1', 'release.jsonl'))).slice(1);
    const v2 = (await loadJournal(join(fixtures, 'v2', 'release.jsonl'))).slice(1);
    const keys = (records: typeof v1) =>
      records.map((record) =>
        'toolCallId' in record
          ? `${record.type} ${record.step} ${record.calls?.join('/') ?? ''} ${record.call}`
          : record.type,
      );
    expect(keys(v1)).toEqual(keys(v2));
  });

  it.each([
    ['v1', 'waiting-for-approval.jsonl', '20260102-030405-v1wt'],
    ['v1', 'crashed-mid-write.jsonl', '20260102-030405-v1cr'],
    ['v2', 'waiting-for-approval.jsonl', '20260102-030405-v2wt'],
    ['v2', 'crashed-mid-write.jsonl', '20260102-030405-v2cr'],
    ['v3', 'waiting-for-approval.jsonl', '20260102-030405-v3wt'],
    ['v3', 'crashed-mid-write.jsonl', '20260102-030405-v3cr'],
    ['v4', 'waiting-for-approval.jsonl', '20260102-030405-v4wt'],
    ['v4', 'crashed-mid-write.jsonl', '20260102-030405-v4cr'],
    ['v5', 'waiting-for-approval.jsonl', '20260102-030405-v5wt'],
    ['v5', 'crashed-mid-write.jsonl', '20260102-030405-v5cr'],
  ])(
    '%s/%s resumes: the approval is asked, and only the calls that had not finished are made',
    async (version, name, runId) => {
      const dir = mkdtempSync(join(tmpdir(), 'june-fixture-'));
      try {
        mkdirSync(join(dir, runId));
        copyFileSync(join(fixtures, version, name), join(dir, runId, 'journal.jsonl'));
        const tools = releaseTools();
        const model = turnModel(releaseTurns);
        const asked: string[] = [];
        const result = await run(<Release model={model} tools={tools} />, {
          journal: fileJournalStore({ dir }),
          resume: runId,
          onApproval: (request) => (asked.push(request.tool), true),
        }).result;
        expect(result.output).toBe('Released 1.2.');
        expect(asked).toEqual(['deploy']);
        expect(model.calls.map((call) => `${call.step}#${call.turn}`)).toEqual([
          'release:ship:go#2',
          'release:prepare#3',
          'plan#3',
        ]);
        expect(tools.ran).toEqual(['deploy:prod']);
        // the journal now mixes the old records and the resumed process's: it still replays whole
        const replayed = await run(<Release model={unreachableModel()} tools={tools} />, {
          replay: join(dir, runId, 'journal.jsonl'),
          replayTools: true,
        }).result;
        expect(replayed.output).toBe('Released 1.2.');
        expect(tools.ran).toEqual(['deploy:prod']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
