// When a run's workflow may end: once its events are written, not once DBOS has recorded the
// publishing step (a transaction of its own). A stand-in for DBOS's runStep and writeStream
// holds the step's record back to show the difference. No database needed.
import { describe, expect, it } from 'vitest';
import { EventPublisher } from '../../src/dbos/event-publisher.js';
import type { DbosSdk } from '../../src/dbos/load-dbos.js';
import type { RunLogEvent } from '../../src/events/run-event.js';

type Dbos = DbosSdk['DBOS'];

/** A DBOS stand-in: writes are kept in order; a step's record waits for `record()`. */
function fakeDbos(options: { recorded?: number } = {}) {
  const writes: unknown[] = [];
  let record!: () => void;
  const recordedAt = new Promise<void>((resolve) => (record = resolve));
  const dbos = {
    workflowID: 'run-1',
    executorID: 'worker-a',
    runStep: async (work: () => Promise<number>) => {
      // a step recorded by an earlier telling: its output, its work not run
      if (options.recorded !== undefined) return options.recorded;
      const output = await work();
      await recordedAt;
      return output;
    },
    writeStream: (_key: string, value: unknown) => {
      writes.push(value);
      return Promise.resolve();
    },
  } as unknown as Dbos;
  return { dbos, writes, record };
}

const runFinish = { type: 'run-finish', runId: 'run-1' } as unknown as RunLogEvent;
const runStart = { type: 'run-start', runId: 'run-1' } as unknown as RunLogEvent;

/** Whether `promise` has settled once pending work has run (no timer involved). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('EventPublisher.written', () => {
  it("settles once the run's events are written, before the step is recorded", async () => {
    const { dbos, writes, record } = fakeDbos();
    const publisher = new EventPublisher(dbos);
    const step = publisher.start();
    publisher.publish(runStart);
    publisher.publish(runFinish);
    publisher.close();
    await publisher.written;
    expect(writes).toEqual([{ events: [runStart, runFinish], first: { executor: 'worker-a' } }]);
    expect(await settled(step)).toBe(false);
    record();
    await expect(step).resolves.toBe(2);
  });

  it('settles when the step was recorded by an earlier telling (nothing drained)', async () => {
    const { dbos, writes } = fakeDbos({ recorded: 5 });
    const publisher = new EventPublisher(dbos);
    const step = publisher.start();
    publisher.publish(runStart);
    publisher.close();
    expect(await settled(publisher.written)).toBe(true);
    await expect(step).resolves.toBe(5);
    expect(writes).toEqual([]);
  });

  it('does not settle before the publisher is closed', async () => {
    const { dbos, record } = fakeDbos();
    const publisher = new EventPublisher(dbos);
    void publisher.start();
    publisher.publish(runStart);
    expect(await settled(publisher.written)).toBe(false);
    publisher.close();
    record();
    await publisher.written;
  });
});
