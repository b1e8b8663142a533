import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JuneError, run, memoryJournalStore, type JournalRecord } from 'june';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  firstEvent,
  isApprovalRequest,
  Release,
  releaseTools,
  releaseTurns,
  turnModel,
  unreachableModel,
} from './support.js';

let recording: JournalRecord[];
let recorded: Awaited<ReturnType<typeof run>['result']>;
let folder: string;

beforeAll(async () => {
  const store = memoryJournalStore();
  const handle = run(<Release model={turnModel(releaseTurns)} tools={releaseTools()} />, {
    journal: store,
    onApproval: () => true,
  });
  recorded = await handle.result;
  recording = await store.read(handle.runId);
  folder = mkdtempSync(join(tmpdir(), 'june-replay-'));
  writeFileSync(join(folder, 'release.jsonl'), store.text(handle.runId));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('replaying a recorded run', () => {
  it('answers every model call from the recording: same result, the model is never called, tools run for real', async () => {
    const model = unreachableModel();
    const tools = releaseTools();
    const result = await run(<Release model={model} tools={tools} />, { replay: recording }).result;

    expect(model.calls).toBe(0);
    expect(result.output).toBe(recorded.output);
    expect(result.usage).toEqual(recorded.usage);
    expect(tools.ran).toEqual(['lookup:1.2', 'check:1.2', 'deploy:prod']);
  });

  it('with replayTools: tools are answered from the recording and do not run; recorded approvals answer again', async () => {
    const tools = releaseTools();
    const handle = run(<Release model={unreachableModel()} tools={tools} />, {
      replay: recording,
      replayTools: true,
    });
    const result = await handle.result;
    expect(result.output).toBe('Released 1.2.');
    expect(tools.ran).toEqual([]);
    expect(handle.pendingApprovals).toEqual([]);
  });

  it('reads a recording from a journal file', async () => {
    const result = await run(<Release model={unreachableModel()} tools={releaseTools()} />, {
      replay: join(folder, 'release.jsonl'),
      replayTools: true,
    }).result;
    expect(result.output).toBe('Released 1.2.');
  });

  it('an edited prompt fails with journal-mismatch and a diff of the two prompts', async () => {
    const model = unreachableModel();
    const error = await failureOf(
      run(<Release model={model} tools={releaseTools()} task="Release 1.2 to staging" />, {
        replay: recording,
      }).result,
    );

    expect(JuneError.isInstance(error) && error.code).toBe('journal-mismatch');
    expect((error as Error).message).toBe(
      `june: the workflow no longer matches the recording of run ${recording[0]!.type === 'journal' ? recording[0]!.runId : ''}: model call 1 of step "plan" asks something else than the recorded call; ` +
        'first difference at message 1 (user): recorded "Release 1.2", now "Release 1.2 to staging". If the change is intended, record the run again.',
    );
    // Both requests, for a side-by-side view (Studio's compare)
    const { comparison } = error as JuneError;
    expect(comparison?.what).toBe('model call 1 of step "plan"');
    expect(JSON.stringify(comparison?.recorded)).toContain('"Release 1.2"');
    expect(JSON.stringify(comparison?.current)).toContain('"Release 1.2 to staging"');
    expect(model.calls).toBe(0);
  });

  it('a tool whose output changed shows up as the first difference of the next model call', async () => {
    const tools = releaseTools();
    const changed = {
      ...tools,
      lookup: { ...tools.lookup, execute: async () => 'other notes' },
    } as typeof tools;
    const error = await failureOf(
      run(<Release model={unreachableModel()} tools={changed} />, { replay: recording }).result,
    );
    expect((error as Error).message).toContain(
      'model call 2 of step "plan" asks something else than the recorded call; first difference at message 3 (tool): recorded "lookup → \\"notes for 1.2\\"", now "lookup → \\"other notes\\""',
    );
  });

  it('a model call the recording does not have fails with journal-mismatch', async () => {
    const short = recording.filter(
      (record) => !(record.type === 'model-call' && record.step === 'plan' && record.index === 2),
    );
    const error = await failureOf(
      run(<Release model={unreachableModel()} tools={releaseTools()} />, {
        replay: short,
        replayTools: true,
      }).result,
    );
    expect(JuneError.isInstance(error) && error.code).toBe('journal-mismatch');
    expect((error as Error).message).toContain(
      'it makes model call 3 of step "plan", which the recording does not have (it has 2 there)',
    );
  });

  it('a new run can journal its replay: the new journal holds every call again', async () => {
    const store = memoryJournalStore();
    const handle = run(<Release model={unreachableModel()} tools={releaseTools()} />, {
      replay: recording,
      journal: store,
    });
    await handle.result;
    const copy = await store.read(handle.runId);
    const count = (records: JournalRecord[], type: JournalRecord['type']) =>
      records.filter((record) => record.type === type).length;
    for (const type of ['model-call', 'tool-call', 'approval-request', 'approval-answer'] as const)
      expect(count(copy, type)).toBe(count(recording, type));
    // and replays like the original
    const again = await run(<Release model={unreachableModel()} tools={releaseTools()} />, {
      replay: copy,
      replayTools: true,
    }).result;
    expect(again.output).toBe('Released 1.2.');
  });

  describe('a recording of a run that did not end', () => {
    /** A run stopped while it waited for the deploy's approval: lookup and check ran. */
    async function abortedRecording(): Promise<JournalRecord[]> {
      const store = memoryJournalStore();
      const handle = run(<Release model={turnModel(releaseTurns)} tools={releaseTools()} />, {
        journal: store,
      });
      await firstEvent(handle, isApprovalRequest);
      handle.abort('stop');
      await handle.result.catch(() => {});
      return store.read(handle.runId);
    }

    it('is refused before any tool runs when tools would run for real', async () => {
      const aborted = await abortedRecording();
      const stillWaiting = aborted.filter((record) => record.type !== 'run-finish');
      for (const [records, how] of [
        [aborted, 'its run ended aborted'],
        [stillWaiting, 'its run has not ended'],
      ] as const) {
        const tools = releaseTools();
        const error = await failureOf(
          run(<Release model={unreachableModel()} tools={tools} />, { replay: records }).result,
        );
        expect(JuneError.isInstance(error) && error.code).toBe('replay-incomplete');
        expect((error as Error).message).toContain(`is not complete: ${how}`);
        expect((error as Error).message).toContain('june run --replay-tools');
        expect(tools.ran).toEqual([]);
      }
    });

    it('replays with its tools answered from the recording, running none', async () => {
      const tools = releaseTools();
      const handle = run(<Release model={unreachableModel()} tools={tools} />, {
        replay: await abortedRecording(),
        replayTools: true,
      });
      await firstEvent(handle, isApprovalRequest);
      handle.abort('done');
      await handle.result.catch(() => {});
      expect(tools.ran).toEqual([]);
    });
  });
});
