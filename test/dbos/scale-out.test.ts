// Two worker processes share one Postgres; 40 runs are enqueued, each appending to a file
// and calling a composite tool, one in four waiting for an approval answered from a third
// process with `june approve`. Every side effect happens once per run, every model call is
// paid once, and both workers take runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { june } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import {
  counts,
  ledgerProject,
  lines,
  startWorker,
  waitFor,
  type WorkerProcess,
} from './support.js';

const missing = postgresMissing();

describe.runIf(!missing)('runs over DBOS: two workers, forty runs', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof ledgerProject>;
  let database: string;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_scale');
    project = ledgerProject();
    // the first launch creates DBOS's tables; the second worker starts once they exist
    workers.push(await startWorker(project.dir, database, 'worker-a'));
    workers.push(await startWorker(project.dir, database, 'worker-b'));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop().catch(() => {})));
    await pg?.stop();
    project?.remove();
  });

  it('finishes every run with each side effect once and each model call paid once', async () => {
    const client = await RunClient.connect(database);
    try {
      const runIds: string[] = [];
      for (let n = 0; n < 40; n++)
        runIds.push(
          await client.enqueue({
            workflow: 'ledger',
            runId: `scale-${n}`,
            props: { dir: project.logs, n, approve: n % 4 === 0 },
          }),
        );
      // the ten runs with an approval wait for it; a third process answers each
      const approvals = runIds.filter((_, n) => n % 4 === 0);
      for (const runId of approvals) {
        await waitFor(
          async () => (await client.waiting(runId)).length > 0,
          90_000,
          `${runId} to ask`,
        );
        const answered = await june(
          ['approve', runId, '--all', '--database', database],
          project.dir,
        );
        expect(answered.stderr).toBe('');
        expect(answered.stdout).toMatch(/^approved entry#2\.0 of run scale-\d+\n$/);
      }
      const results = await Promise.all(runIds.map((runId) => client.result(runId)));
      expect(results.map((result) => result.output)).toEqual(runIds.map((_, n) => `done ${n}`));

      const effects = counts(
        lines(project.logs, 'effects.log').map((line) => line.split(' ').slice(0, 2).join(' ')),
      );
      for (let n = 0; n < 40; n++) {
        expect(effects.get(`append e${n}`)).toBe(1);
        expect(effects.get(`append s${n}`)).toBe(1);
        expect(effects.get(`publish p${n}`)).toBe(n % 4 === 0 ? 1 : undefined);
      }
      const paid = counts(lines(project.logs, 'models.log'));
      expect([...paid.values()].every((times) => times === 1)).toBe(true);
      // entry: append, summarize, (publish), text; summarize:go: append, text
      expect(paid.size).toBe(40 * 5 + 10);

      const runs = await client.list({ limit: 100 });
      expect(new Set(runs.map((run) => run.worker))).toEqual(new Set(['worker-a', 'worker-b']));
      expect(runs.every((run) => run.status === 'succeeded')).toBe(true);
    } finally {
      await client.close();
    }
  }, 480_000);
});

describe.runIf(missing)('runs over DBOS', () => {
  it('needs PostgreSQL', () => {
    throw new Error(missing);
  });
});
