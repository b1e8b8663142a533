// A memory host over a journal store of the caller's (the web handler's journal form): a run
// of the store that a host does not hold (its process stopped) is taken up from its journal
// when asked for, while another holder keeps it busy; a failed run is left as it ended.
import { memoryJournalStore } from 'june';
import { describe, expect, it } from 'vitest';
import { memoryRunHost } from '../../src/host/memory-run-host.js';
import Desk from './fixtures/desk.js';

const open = (journal: ReturnType<typeof memoryJournalStore>) =>
  memoryRunHost({ workflows: { desk: Desk }, journal });

async function waitingCall(host: ReturnType<typeof open>, runId: string) {
  for (;;) {
    const { waiting } = await host.decisions(runId);
    if (waiting.length > 0) return waiting[0]!;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('a memory host over a journal store of its own', () => {
  it('takes up a run another host stopped: it waits again, and the answer runs the tool once', async () => {
    const journal = memoryJournalStore();
    const before = open(journal);
    const runId = await before.start({ workflow: 'desk', props: { mode: 'deploy' } });
    const asked = await waitingCall(before, runId);

    // while the first host holds the run, another one over the store is refused
    const other = open(journal);
    await expect(other.decisions(runId)).rejects.toMatchObject({
      code: 'studio-run-owned',
      status: 409,
      message: expect.stringMatching(new RegExp(`^june: run ${runId} is busy: process`)),
    });
    await before.close(); // the process stops: its run is aborted, its journal kept

    const after = open(journal);
    const { waiting, state } = await after.decisions(runId);
    expect(state).toBe('live');
    expect(waiting.map((call) => call.key)).toEqual([asked.key]);
    await after.answer(runId, { key: asked.key, approved: true, source: 'web' });
    const deploys = async () =>
      (await journal.read(runId)).filter((record) => record.type === 'tool-call').length;
    while ((await deploys()) === 0) await new Promise((resolve) => setImmediate(resolve));
    const answers = (await journal.read(runId)).filter((r) => r.type === 'approval-answer');
    expect(answers).toMatchObject([{ approved: true, source: 'web' }]);
    expect(await deploys()).toBe(1);
    await Promise.all([after.close(), other.close()]);
  });

  it('reads an ended run of the store from its journal, and leaves a failed one as it ended', async () => {
    const journal = memoryJournalStore();
    const first = open(journal);
    const done = await first.start({ workflow: 'desk', props: { mode: 'quick' } });
    const failed = await first.start({ workflow: 'desk', props: { mode: 'fail' } });
    await first.result(done);
    await first.result(failed);
    await first.close();
    const modelCalls = async (runId: string) =>
      (await journal.read(runId)).filter((record) => record.type === 'model-call').length;
    const calls = await modelCalls(done);

    const second = open(journal);
    expect((await second.result(done)).status).toBe('succeeded');
    expect(await modelCalls(done)).toBe(calls); // replayed: no model call made again
    await expect(second.decisions(failed)).rejects.toMatchObject({ code: 'studio-run-missing' });
    await second.close();
  });
});
