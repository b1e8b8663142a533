// Four `june worker`s started at once against a new database, ten times: every one of them
// starts (the database set-up is serialised, so DBOS's schema migration never races) and
// the database they set up runs a run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { ledgerProject, startWorker, type WorkerProcess } from './support.js';

const missing = postgresMissing();
const ROUNDS = 10;
const WORKERS = 4;

describe.runIf(!missing)('workers started at once on a new database', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof ledgerProject>;
  const running = new Set<WorkerProcess>();

  beforeAll(async () => {
    pg = await startPostgres();
    project = ledgerProject();
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...running].map((worker) => worker.kill().catch(() => {})));
    await pg?.stop();
    project?.remove();
  });

  it(`all ${WORKERS} start, ${ROUNDS} times out of ${ROUNDS}`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const database = pg.url(`june_fresh_${round}`);
      const starts = await Promise.allSettled(
        Array.from({ length: WORKERS }, (_, n) =>
          startWorker(project.dir, database, `w${round}-${n}`).then((worker) => {
            running.add(worker);
            return worker;
          }),
        ),
      );
      const failed = starts.flatMap((start) =>
        start.status === 'rejected' ? [String(start.reason)] : [],
      );
      expect(failed, `round ${round}`).toEqual([]);
      const workers = starts.map((start) => (start as PromiseFulfilledResult<WorkerProcess>).value);
      for (const worker of workers) {
        const stderr = worker.running.output().stderr;
        expect(stderr).not.toMatch(
          /tuple concurrently updated|deadlock detected|duplicate key|Failed to initialize/,
        );
        // a worker that waited said what for, in a june: line like everything it prints (and
        // how it learns of new runs, once started)
        for (const line of stderr.split('\n').filter(Boolean))
          expect(line).toMatch(
            /^june: worker w\d+-\d (?:waits for another worker to finish setting up the database at |polls )/,
          );
      }

      const client = await RunClient.connect(database);
      try {
        await client.enqueue({
          workflow: 'ledger',
          runId: `round-${round}`,
          props: { dir: project.logs, n: round },
        });
        expect((await client.result(`round-${round}`)).output).toBe(`done ${round}`);
      } finally {
        await client.close();
      }
      await Promise.all(workers.map((worker) => worker.stop()));
      for (const worker of workers) running.delete(worker);
    }
  }, 900_000);
});
