// QueueWakeups against DBOS's own scheduler and a stand-in with its shapes: it takes hold on the
// DBOS version June pins (the process test, test/dbos/queue-wakeups.test.ts, shows it works
// there), lets go of a DBOS without them, wakes the scheduler only when a run of a queue it was
// given ends or is announced, waits out a poll in flight, leaves a full worker and a queue DBOS
// backs off from alone, and never throws into DBOS when a shape it relies on has moved.
import { describe, expect, it } from 'vitest';
import { SystemDatabase } from '@dbos-inc/dbos-sdk/internal/system_database';
import type { PgClient } from '../../src/dbos/pg-driver.js';
import { dbosQueueInternals, QueueWakeups } from '../../src/dbos/queue-wakeups.js';

const QUEUE = 'june.run.release';

/**
 * A scheduler with DBOS's shapes: one queue's state, a poll the test ends (which, as DBOS's
 * does, schedules the next poll, leaves `inFlightPolls` and wakes the loop), a system database
 * counting running workflows, and a listener whose notifications the test sends.
 */
function standIn(polling: { currentPollingMs?: number } = {}) {
  const queue = { name: QUEUE, minPollingIntervalMs: 50, workerConcurrency: 2 };
  const wakes: number[] = [];
  const inFlightPolls = new Map<string, unknown>();
  const wake = () => wakes.push(Date.now());
  let endPoll = () => {};
  class Runner {
    states = new Map([[QUEUE, { queue, nextPollAt: Date.now() + 60_000, ...polling }]]);
    scheduleDueQueues(..._args: unknown[]) {}
    async runQueuePoll(_exec: unknown, s: { nextPollAt: number }, ..._rest: unknown[]) {
      try {
        await new Promise<void>((resolve) => (endPoll = resolve));
      } finally {
        s.nextPollAt = Date.now() + 50; // adjustInterval
        inFlightPolls.delete(QUEUE);
        wake();
      }
    }
  }
  const runner = new Runner();
  let running = 0;
  const systemDatabase = {
    registerRunningWorkflow: (_id: string, queueName?: string) => {
      running++;
      return { queueName, release: () => void running-- };
    },
    countRunningWorkflowsForQueue: () => running,
  };
  /** Starts a poll of the queue, as DBOS's scheduler does. */
  const poll = () => {
    const done = runner.runQueuePoll({}, runner.states.get(QUEUE)!, inFlightPolls, wake);
    inFlightPolls.set(QUEUE, done);
    return done;
  };
  let announce: (queue: string) => void = () => {};
  const open = (_db: string, _channel: string, onPayload: (payload: string) => void) => {
    announce = onPayload;
    return Promise.resolve({ end: () => Promise.resolve() } as unknown as PgClient);
  };
  const state = () => runner.states.get(QUEUE)!;
  /** A wake-up set up: installed, attached, listening, and the scheduler's wake-up handed over. */
  const wakeups = async () => {
    const w = new QueueWakeups([QUEUE]);
    expect(w.install(runner)).toBe(true);
    expect(w.attach(systemDatabase)).toBe(true);
    expect(w.listen('postgresql://unused', open)).toBe(true);
    await Promise.resolve();
    const first = poll();
    endPoll();
    await first;
    wakes.length = 0;
    state().nextPollAt = Date.now() + 60_000;
    return w;
  };
  return {
    runner,
    systemDatabase,
    wakes,
    poll,
    endPoll: () => endPoll(),
    state,
    wakeups,
    announce: (queue: string) => announce(queue),
  };
}

describe('QueueWakeups', () => {
  it("takes hold on the pinned DBOS's scheduler and system database, and lets go again", async () => {
    const { queueRunner } = await dbosQueueInternals();
    const wakeups = new QueueWakeups([QUEUE]);
    expect(wakeups.install(queueRunner)).toBe(true);
    expect(Object.hasOwn(queueRunner as object, 'runQueuePoll')).toBe(true);
    expect(wakeups.attach(Object.create(SystemDatabase.prototype))).toBe(true);
    await wakeups.uninstall();
    expect(Object.hasOwn(queueRunner as object, 'runQueuePoll')).toBe(false);
  });

  it("leaves a later worker's wrapper in place when an earlier one uninstalls", async () => {
    const { queueRunner } = await dbosQueueInternals();
    const earlier = new QueueWakeups([QUEUE]);
    const later = new QueueWakeups([QUEUE]);
    earlier.install(queueRunner);
    later.install(queueRunner);
    const wrapper = (queueRunner as { runQueuePoll: unknown }).runQueuePoll;
    await earlier.uninstall();
    expect((queueRunner as { runQueuePoll: unknown }).runQueuePoll).toBe(wrapper);
    await later.uninstall();
    expect(Object.hasOwn(queueRunner as object, 'runQueuePoll')).toBe(false);
  });

  it('does nothing on a DBOS without those shapes: the worker polls on its timer', () => {
    const wakeups = new QueueWakeups([QUEUE]);
    const runner = { runQueuePoll: () => Promise.resolve() };
    expect(wakeups.install(runner)).toBe(false);
    expect(wakeups.install(undefined)).toBe(false);
    expect(wakeups.attach({ registerRunningWorkflow: () => ({ release() {} }) })).toBe(false);
    expect(wakeups.listen('postgresql://unused')).toBe(false);
  });

  it("wakes the scheduler with the queue due when one of its runs ends, not another queue's", async () => {
    const s = standIn();
    await s.wakeups();
    s.systemDatabase.registerRunningWorkflow('other', 'june.run.other').release();
    s.systemDatabase.registerRunningWorkflow('not-queued').release();
    expect(s.wakes).toEqual([]);
    const entry = s.systemDatabase.registerRunningWorkflow('run-1', QUEUE);
    entry.release();
    entry.release(); // a release before a park and again once the run settles: one wake-up
    expect(s.wakes).toHaveLength(1);
    expect(s.state().nextPollAt).toBeLessThanOrEqual(Date.now());
  });

  it('a run that ends during a poll of its queue has it polled again right after that poll', async () => {
    const s = standIn();
    await s.wakeups();
    const polling = s.poll();
    s.systemDatabase.registerRunningWorkflow('run-1', QUEUE).release();
    expect(s.wakes).toEqual([]);
    s.endPoll();
    await polling;
    // DBOS's poll scheduled the next one 50 ms away; the wake-up brings it to now
    expect(s.state().nextPollAt).toBeLessThanOrEqual(Date.now());
    expect(s.wakes.length).toBeGreaterThanOrEqual(2);
  });

  it("polls on a notice for its queue while it has room, not for another's or when full", async () => {
    const s = standIn();
    await s.wakeups();
    s.announce('june.run.other');
    expect(s.wakes).toEqual([]);
    s.announce(QUEUE);
    expect(s.wakes).toHaveLength(1);
    s.state().nextPollAt = Date.now() + 60_000;
    s.systemDatabase.registerRunningWorkflow('run-1', QUEUE);
    s.systemDatabase.registerRunningWorkflow('run-2', QUEUE); // its concurrency, 2
    s.announce(QUEUE);
    expect(s.wakes).toHaveLength(1);
    expect(s.state().nextPollAt).toBeGreaterThan(Date.now());
  });

  it('leaves a queue DBOS backs off from (contention) to its longer interval', async () => {
    const s = standIn({ currentPollingMs: 400 });
    await s.wakeups();
    const due = s.state().nextPollAt;
    s.systemDatabase.registerRunningWorkflow('run-1', QUEUE).release();
    s.announce(QUEUE);
    expect(s.wakes).toEqual([]);
    expect(s.state().nextPollAt).toBe(due);
  });

  it('has each of its queues polled as soon as the scheduler has it, once', async () => {
    const s = standIn();
    const saved = s.state();
    s.runner.states.delete(QUEUE); // a queue DBOS learns of at its next look at the database
    const wakeups = new QueueWakeups([QUEUE]);
    wakeups.install(s.runner);
    const turn = (now: number) => s.runner.scheduleDueQueues({}, now, 3, new Map(), () => {});
    turn(Date.now());
    s.runner.states.set(QUEUE, saved);
    const now = Date.now();
    turn(now);
    expect(s.state().nextPollAt).toBe(now); // due on this very turn
    s.state().nextPollAt = now + 50; // DBOS's poll scheduled the next one
    turn(now + 10);
    expect(s.state().nextPollAt).toBe(now + 50);
    await wakeups.uninstall();
    expect(Object.hasOwn(s.runner, 'scheduleDueQueues')).toBe(false);
  });

  it('throws nothing into DBOS when a state it relies on has moved', async () => {
    const s = standIn();
    await s.wakeups();
    const state = s.state() as { nextPollAt?: number };
    delete state.nextPollAt;
    s.runner.states.set(QUEUE, null as never);
    expect(() => s.systemDatabase.registerRunningWorkflow('run-1', QUEUE).release()).not.toThrow();
    expect(() => s.announce(QUEUE)).not.toThrow();
    expect(s.wakes).toEqual([]);
  });
});
