// QueueWakeups against DBOS's own scheduler and a stand-in with its shapes: it takes hold on the
// DBOS version June pins (a DBOS upgrade that moves these internals fails here, not silently in
// production), lets go of a DBOS without them, wakes the scheduler only when a run of a queue it
// was given ends, waits out a poll in flight, and leaves a queue DBOS backs off from alone.
import { describe, expect, it } from 'vitest';
import { SystemDatabase } from '@dbos-inc/dbos-sdk/internal/system_database';
import { dbosQueueInternals, QueueWakeups } from '../../src/dbos/queue-wakeups.js';

/** A scheduler with DBOS's shapes: one queue's state, a poll the test ends, and its wake-ups. */
function standIn(polling: { currentPollingMs?: number } = {}) {
  const queue = { name: 'june.run.release', minPollingIntervalMs: 50 };
  const wakes: number[] = [];
  const inFlightPolls = new Map<string, unknown>();
  let endPoll = () => {};
  class Runner {
    states = new Map([
      ['june.run.release', { queue, nextPollAt: Date.now() + 60_000, ...polling }],
    ]);
    async runQueuePoll(_exec: unknown, s: { nextPollAt: number }, ..._rest: unknown[]) {
      await new Promise<void>((resolve) => (endPoll = resolve));
      s.nextPollAt = Date.now() + 50; // DBOS's adjustInterval
    }
  }
  const runner = new Runner();
  const systemDatabase = {
    registerRunningWorkflow: (_id: string, queueName?: string) => ({ queueName, release() {} }),
  };
  const wake = () => wakes.push(Date.now());
  /** Starts a poll of the queue, as DBOS's scheduler does. */
  const poll = () => {
    const running = runner.runQueuePoll({}, runner.states.get(queue.name)!, inFlightPolls, wake);
    inFlightPolls.set(queue.name, running);
    return running.then(() => void inFlightPolls.delete(queue.name));
  };
  const state = () => runner.states.get(queue.name)!;
  return { runner, systemDatabase, wakes, poll, endPoll: () => endPoll(), state };
}

describe('QueueWakeups', () => {
  it("takes hold on the pinned DBOS's scheduler and system database, and lets go again", async () => {
    const { queueRunner } = await dbosQueueInternals();
    const wakeups = new QueueWakeups(['june.run.release']);
    expect(wakeups.install(queueRunner)).toBe(true);
    expect(Object.hasOwn(queueRunner as object, 'runQueuePoll')).toBe(true);
    const systemDatabase = Object.create(SystemDatabase.prototype) as object;
    expect(wakeups.attach(systemDatabase)).toBe(true);
    wakeups.uninstall();
    expect(Object.hasOwn(queueRunner as object, 'runQueuePoll')).toBe(false);
  });

  it('does nothing on a DBOS without those shapes: the worker polls on its timer', () => {
    const wakeups = new QueueWakeups(['june.run.release']);
    const runner = { runQueuePoll: () => Promise.resolve() };
    expect(wakeups.install(runner)).toBe(false);
    expect(wakeups.install(undefined)).toBe(false);
    expect(wakeups.attach({ registerRunningWorkflow: () => ({ release() {} }) })).toBe(false);
  });

  it("wakes the scheduler with the queue due when one of its runs ends, not another queue's", async () => {
    const s = standIn();
    const wakeups = new QueueWakeups(['june.run.release']);
    expect(wakeups.install(s.runner)).toBe(true);
    expect(wakeups.attach(s.systemDatabase)).toBe(true);
    const first = s.poll(); // hands over the scheduler's wake-up
    s.endPoll();
    await first;
    s.state().nextPollAt = Date.now() + 60_000;
    s.systemDatabase.registerRunningWorkflow('other', 'june.run.other').release();
    s.systemDatabase.registerRunningWorkflow('not-queued').release();
    expect(s.wakes).toEqual([]);
    const entry = s.systemDatabase.registerRunningWorkflow('run-1', 'june.run.release');
    entry.release();
    entry.release(); // a release before a park and again once the run settles: one wake-up
    expect(s.wakes).toHaveLength(1);
    expect(s.state().nextPollAt).toBeLessThanOrEqual(Date.now());
  });

  it('a run that ends during a poll of its queue wakes the scheduler once that poll ends', async () => {
    const s = standIn();
    const wakeups = new QueueWakeups(['june.run.release']);
    wakeups.install(s.runner);
    wakeups.attach(s.systemDatabase);
    const polling = s.poll();
    s.systemDatabase.registerRunningWorkflow('run-1', 'june.run.release').release();
    expect(s.wakes).toEqual([]);
    s.endPoll();
    await polling;
    expect(s.wakes).toHaveLength(1);
    expect(s.state().nextPollAt).toBeLessThanOrEqual(Date.now());
  });

  it('leaves a queue DBOS backs off from (contention) to its longer interval', async () => {
    const s = standIn({ currentPollingMs: 400 });
    const wakeups = new QueueWakeups(['june.run.release']);
    wakeups.install(s.runner);
    wakeups.attach(s.systemDatabase);
    const first = s.poll();
    s.endPoll();
    await first;
    const due = s.state().nextPollAt;
    s.systemDatabase.registerRunningWorkflow('run-1', 'june.run.release').release();
    expect(s.wakes).toEqual([]);
    expect(s.state().nextPollAt).toBe(due);
  });
});
