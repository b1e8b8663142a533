// The run host contract against a database of runs, over a real PostgreSQL: runs of
// test/host/fixtures/desk.tsx are queued through RunClient and run by a `june worker`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseRuns } from '../../src/host/database-runs.js';
import type { RunHost } from '../../src/host/run-host.js';
import { openRunHost } from '../../src/host/open-run-host.js';
import { tempProject } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { runHostContract } from '../host/host-contract.js';
import { deskSource } from '../host/hosts-under-test.js';
import { startWorker, waitFor, type WorkerProcess } from './support.js';

describe.runIf(!postgresMissing())('a database of runs as a run host', () => {
  runHostContract('database', async () => {
    const pg = await startPostgres();
    const database = pg.url('june_run_host');
    const project = tempProject();
    project.write('desk.tsx', deskSource);
    const worker = await startWorker(project.dir, database, 'host-worker', {
      files: ['desk.tsx'],
    });
    const host = await openRunHost({ database, pollIntervalMs: 200 });
    return {
      host,
      workflow: 'desk',
      close: async () => {
        await host.close().catch(() => {});
        await worker.stop().catch(() => {});
        await pg.stop();
        project.remove();
      },
    };
  });
});

describe.runIf(!postgresMissing())('a database of more runs than its list reads', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof tempProject>;
  let worker: WorkerProcess;
  let host: RunHost;
  let database: string;
  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_run_host_older');
    project = tempProject();
    project.write('desk.tsx', deskSource);
    worker = await startWorker(project.dir, database, 'older-worker', { files: ['desk.tsx'] });
    host = await openRunHost({ database, pollIntervalMs: 200 });
  }, 180_000);
  afterAll(async () => {
    await host?.close().catch(() => {});
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  it('opens a run older than the newest ones the list reads, by its id (Studio opens its page)', async () => {
    const oldest = await host.start({ workflow: 'desk', props: { mode: 'quick' } });
    await host.result(oldest);
    const newer = await host.start({ workflow: 'desk', props: { mode: 'quick' } });
    await host.result(newer);
    const runs = await DatabaseRuns.open({ database, limit: 1 });
    try {
      expect((await runs.list()).map((entry) => entry.runId)).toEqual([newer]);
      // found by its id; its trace fills in from its events as they are read
      const status = async () => {
        const found = await runs.readTrace(oldest);
        return 'text' in found ? (JSON.parse(found.text) as { status: string }).status : found;
      };
      await waitFor(async () => (await status()) === 'succeeded', 30_000);
      expect(await runs.readTrace('no-such-run-0000')).toEqual({ missing: true });
    } finally {
      runs.close();
    }
  }, 120_000);

  it("marks a thread's runs in the list with their thread and order (Studio's Thread filter), and lists them in order", async () => {
    const first = await host.start({
      workflow: 'desk',
      props: { mode: 'quick' },
      thread: 'desk-ana',
    });
    await host.result(first);
    const second = await host.start({
      workflow: 'desk',
      props: { mode: 'quick' },
      thread: 'desk-ana',
    });
    await host.result(second);
    const threadOf = (entry: Awaited<ReturnType<RunHost['list']>>[number]) =>
      'thread' in entry ? entry.thread : undefined;
    await waitFor(
      async () => (await host.list()).some((entry) => entry.runId === second && threadOf(entry)),
      30_000,
      "the second run's thread in the list",
    );
    const listed = (await host.list()).filter((entry) => threadOf(entry)?.id === 'desk-ana');
    expect(listed.map((entry) => [entry.runId, threadOf(entry)?.order]).sort()).toEqual(
      [
        [first, 1],
        [second, 2],
      ].sort(),
    );
    expect((await host.threadRuns!('desk-ana')).map((run) => run.runId)).toEqual([first, second]);
  }, 120_000);
});
