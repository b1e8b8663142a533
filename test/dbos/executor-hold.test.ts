// A live worker holds its executor id. Two `june worker`s started with default options on
// one machine share an id (the host name), and DBOS recovers the pending runs of a worker's
// id when it launches: before the hold, the second worker took over the run the first was
// still running and ran its tool again, concurrently. Now the second is refused before DBOS
// recovers anything, with a june: line naming the holder; a worker killed with kill -9 and
// started again with its id still recovers its runs. Real worker processes over a real
// PostgreSQL; each tool execution appends a line to effects.log.
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { startJune } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { restartRound } from './executor-restarts.js';
import {
  counts,
  ledgerProject,
  lines,
  startWorker,
  waitFor,
  type WorkerProcess,
} from './support.js';

const missing = postgresMissing();

describe.runIf(!missing)('a live worker holds its executor id', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof ledgerProject>;
  let database: string;
  let client: RunClient;
  const workers = new Set<WorkerProcess>();

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_executor_hold');
    project = ledgerProject();
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await Promise.all([...workers].map((worker) => worker.stop().catch(() => {})));
    await pg?.stop();
    project?.remove();
  });

  it('refuses a second worker with the default id while the first runs a tool, which runs once', async () => {
    const first = await startWorker(project.dir, database, null);
    workers.add(first);
    client = await RunClient.connect(database); // the first worker created the database
    await client.enqueue({
      workflow: 'ledger',
      runId: 'held-tool',
      props: { dir: project.logs, n: 1, hold: 'tool' },
    });
    await waitFor(() => lines(project.logs, 'holding-1').length > 0, 60_000, 'the tool to hold');

    const second = startJune(['worker', 'ledger.tsx', '--database', database], project.dir);
    let ended = false;
    void second.done.then(() => (ended = true));
    const appends = () =>
      lines(project.logs, 'effects.log').filter((line) => line.startsWith('append e1 ')).length;
    // before the hold, the second worker recovered the run and appended again
    await waitFor(() => ended || appends() > 1, 60_000, 'the second worker to end');
    const refused = await second.done;
    expect(appends()).toBe(1);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `june: the executor id "${hostname()}" is held by a live worker: pid ${first.running.pid} on ${hostname()}, since `,
    );
    expect(refused.stderr).toContain('--executor');
    expect(refused.stdout).not.toContain('june worker');

    project.write(`logs/release-1`, '');
    expect((await client.result('held-tool')).output).toBe('done 1');
    expect([...counts(lines(project.logs, 'effects.log')).values()]).toEqual([1, 1]);
    await first.stop();
    workers.delete(first);
  });

  it('lets a worker killed with kill -9 take its id back at once and recover its run', async () => {
    const problems = await restartRound({
      dir: project.dir,
      logs: project.logs,
      database,
      client,
      round: 1,
    });
    expect(problems).toEqual([]);
  });
});
