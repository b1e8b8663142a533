// A worker takes a queued run as soon as one of its runs ends (a full worker) or a June client
// enqueues one (an idle worker), not at its next poll of the queue: with polling every 4 s and
// room for one run at a time, three runs enqueued at once each start right after the one
// before ends, and a run enqueued on the idle queue starts at once; and RunClient.result gives
// a run's result soon after it ends. Timestamps are DBOS's own (enqueued, dequeued, completed),
// compared against the polling interval, and against this machine's clock for the result.
// A worker started with --no-wakeups says so once, polls on the timer alone, and runs its runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunClient } from 'june/dbos';
import type { PgClient } from '../../src/dbos/pg-driver.js';
import { postgresMissing } from '../helpers/postgres.js';
import { ledgerDatabase, waitFor, type LedgerDatabase } from './support.js';

const missing = postgresMissing();
const POLLING_MS = 4000;

describe.runIf(!missing)('a worker polls its queue when a run ends or is enqueued', () => {
  let setup: LedgerDatabase | undefined;
  let project: LedgerDatabase['project'];
  let client: RunClient;
  let db: PgClient;

  beforeAll(async () => {
    setup = await ledgerDatabase('june_queue_wakeups', 'wakeups', {
      concurrency: 1,
      pollingIntervalMs: POLLING_MS,
      // on even when the suite runs with them off (JUNE_DBOS_WAKEUPS=off)
      env: { JUNE_DBOS_WAKEUPS: 'on' },
    });
    ({ project, client, db } = setup);
  }, 120_000);

  afterAll(() => setup?.close());

  it('says once, as it starts, that it uses the wake-ups and why', async () => {
    const stderr = () => setup!.worker.running.output().stderr;
    const line =
      /^june: worker wakeups polls a queue as soon as a run is enqueued on it or one of its runs ends \(wake-ups, besides a poll every 4000 ms\): DBOS 5\.3\.\d+ is a version they were tested on; --no-wakeups turns them off$/m;
    await waitFor(() => line.test(stderr()), 30_000, 'the wake-ups line');
    expect(
      stderr()
        .split('\n')
        .filter((l) => l.includes('wake-ups')),
    ).toHaveLength(1);
  });

  it('starts each queued run as the one before it ends, not a polling interval later', async () => {
    const ids = await Promise.all(
      [1, 2, 3].map((n) => client.enqueue({ workflow: 'ledger', props: { dir: project.logs, n } })),
    );
    for (const [i, id] of ids.entries())
      expect((await client.result(id)).output).toBe(`done ${i + 1}`);
    const { rows } = await db.query(
      `SELECT created_at::bigint AS enqueued, started_at_epoch_ms::bigint AS started,
              completed_at::bigint AS completed, executor_id
         FROM dbos.workflow_status WHERE workflow_uuid = ANY($1) ORDER BY started_at_epoch_ms`,
      [ids],
    );
    const runs = rows.map((row) => ({
      started: Number(row.started),
      ended: Number(row.completed),
    }));
    expect(rows.map((row) => row.executor_id)).toEqual(['wakeups', 'wakeups', 'wakeups']);
    // the worker, just started on a new database, polled its queue as soon as DBOS knew it
    // (its first look at the database's queues comes a second after it starts), not a whole
    // polling interval later
    expect(runs[0]!.started - Number(rows[0]!.enqueued)).toBeLessThan(POLLING_MS / 2);
    // one at a time: each starts after the one before it ended
    for (let i = 1; i < runs.length; i++)
      expect(runs[i]!.started).toBeGreaterThanOrEqual(runs[i - 1]!.ended);
    // ... and well before the poll that would otherwise have found it (DBOS jitters a poll
    // by 5% at most, so a run left to the timer waits 3.8 s or more after the last poll)
    const gaps = runs.slice(1).map((run, i) => run.started - runs[i]!.ended);
    for (const gap of gaps) expect(gap).toBeLessThan(POLLING_MS / 4);
  }, 90_000);

  it('starts a run enqueued on an idle queue at once, not at the next poll', async () => {
    // the last run's end made the worker poll: its next poll on the timer is ~4 s away
    for (const n of [4, 5]) {
      const id = await client.enqueue({ workflow: 'ledger', props: { dir: project.logs, n } });
      expect((await client.result(id)).output).toBe(`done ${n}`);
      const { rows } = await db.query(
        `SELECT created_at::bigint AS enqueued, started_at_epoch_ms::bigint AS started
           FROM dbos.workflow_status WHERE workflow_uuid = $1`,
        [id],
      );
      expect(Number(rows[0]!.started) - Number(rows[0]!.enqueued)).toBeLessThan(POLLING_MS / 4);
    }
  }, 60_000);

  it("gives a run's result soon after it ends, not at DBOS's one-second poll", async () => {
    // RunClient.result reads every 50 ms; DBOS's client alone reads every 1000 ms, so a
    // result left to it comes 0 to 1000 ms after the run's end: four in a row under 250
    // would be a 1-in-256 chance
    for (const n of [6, 7, 8, 9]) {
      const id = await client.enqueue({ workflow: 'ledger', props: { dir: project.logs, n } });
      expect((await client.result(id)).output).toBe(`done ${n}`);
      const given = Date.now();
      const { rows } = await db.query(
        `SELECT completed_at::bigint AS completed FROM dbos.workflow_status WHERE workflow_uuid = $1`,
        [id],
      );
      expect(given - Number(rows[0]!.completed)).toBeLessThan(250);
    }
  }, 60_000);
});

describe.runIf(!missing)('a worker started with --no-wakeups', () => {
  let setup: LedgerDatabase | undefined;

  beforeAll(async () => {
    setup = await ledgerDatabase('june_no_wakeups', 'polled', {
      concurrency: 1,
      pollingIntervalMs: 1000,
      args: ['--no-wakeups'],
    });
  }, 120_000);

  afterAll(() => setup?.close());

  it('says it polls on the timer alone, and runs its runs', async () => {
    const { client, project, worker } = setup!;
    const stderr = () => worker.running.output().stderr;
    await waitFor(
      () =>
        /^june: worker polled polls its queues every 1000 ms for new runs and freed slots: the wake-ups are turned off$/m.test(
          stderr(),
        ),
      30_000,
      'the polling line',
    );
    const ids = await Promise.all(
      [1, 2].map((n) => client.enqueue({ workflow: 'ledger', props: { dir: project.logs, n } })),
    );
    for (const [i, id] of ids.entries())
      expect((await client.result(id)).output).toBe(`done ${i + 1}`);
    expect(stderr()).not.toContain('wake-ups, besides');
  }, 60_000);
});
