// The model door over DBOS: a v4, a v3 and a v2 model run on a worker; each run waits for an
// approval across the restart of its worker (its model call answered from DBOS, not made
// again), then finishes.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { tempProject } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { counts, lines, startWorker, waitFor, type WorkerProcess } from './support.js';

const missing = postgresMissing();
const specsSource = readFileSync(new URL('./fixtures/specs.tsx', import.meta.url), 'utf8');
const specs = ['v4', 'v3', 'v2'] as const;

describe.runIf(!missing)('models of every specification on a DBOS worker', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof tempProject>;
  let logs: string;
  let database: string;
  let client: RunClient;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_specs');
    project = tempProject();
    project.write('specs.tsx', specsSource);
    logs = project.folder('logs');
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  it('run, wait for approval across a restart, and finish, each model call made once', async () => {
    const start = () =>
      startWorker(project.dir, database, 'specs-worker', { files: ['specs.tsx'] });
    worker = await start();
    // the worker made the database
    client = await RunClient.connect(database);
    for (const spec of specs)
      await client.enqueue({ workflow: 'specs', runId: `run-${spec}`, props: { dir: logs, spec } });
    for (const spec of specs)
      await waitFor(
        async () => (await client.waiting(`run-${spec}`)).length > 0,
        60_000,
        `the approval of the ${spec} run`,
      );
    await worker.kill();
    worker = await start();
    for (const spec of specs) {
      await client.approve(`run-${spec}`, { all: true, approved: true });
      expect((await client.result(`run-${spec}`)).output).toBe(`published with ${spec}`);
    }
    const paid = counts(lines(logs, 'models.log'));
    for (const spec of specs) {
      expect(paid.get(`${spec}|1`), `${spec}, first call`).toBe(1);
      expect(paid.get(`${spec}|2`), `${spec}, second call`).toBe(1);
    }
    expect([...lines(logs, 'effects.log')].sort()).toEqual([
      'publish v2 1',
      'publish v3 1',
      'publish v4 1',
    ]);
  }, 300_000);
});
