// A DBOS worker killed (SIGKILL) in the middle of a <Parallel> fan-out of five branches
// (test/engine/fixtures/parallel-fan-out.tsx): the first worker finished the branches' tools
// e, d, c, b and was killed while a's ran; the recovered workflow goes on a, b, c, d, e, the
// other way round. Each branch's calls are recorded under its branch's key, so each finds
// its own record: no tool runs twice and no finished branch calls its model again.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { pgClient } from '../../src/dbos/pg-driver.js';
import { tempProject } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { counts, lines, startWorker, waitFor, type WorkerProcess } from './support.js';

const missing = postgresMissing();
const fixtures = new URL('../engine/fixtures/', import.meta.url);

describe.runIf(!missing)('a run over DBOS killed in the middle of a <Parallel> fan-out', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof tempProject>;
  let database: string;
  let client: RunClient;
  let worker: WorkerProcess | undefined;
  const start = async () => {
    worker = await startWorker(project.dir, database, 'parallel-worker', {
      files: ['parallel.tsx'],
    });
  };

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_parallel');
    project = tempProject();
    for (const file of readdirSync(fixtures))
      project.write(`fixtures/${file}`, readFileSync(new URL(file, fixtures), 'utf8'));
    project.write('parallel.tsx', "export { default } from './fixtures/parallel-fan-out.tsx';\n");
    await start();
    client = await RunClient.connect(database);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  it('recovers with its branches going on in another order: no tool runs twice, no model call is made again', async () => {
    const dir = project.folder('logs');
    const runId = 'parallel-killed';
    await client.enqueue({ workflow: 'parallel', runId, props: { dir } });
    // four branches' last model calls recorded, the fifth's tool working
    const db = pgClient({ connectionString: database });
    await db.connect();
    const recorded = async () => {
      const { rows } = await db.query(
        "SELECT place FROM june.calls WHERE run_id = $1 AND place LIKE 'model %#1'",
        [runId],
      );
      return rows.length;
    };
    try {
      await waitFor(
        async () => lines(dir, 'started.log').includes('a') && (await recorded()) === 4,
        60_000,
        'four branches done and the fifth working',
      );
    } finally {
      await db.end();
    }
    expect(lines(dir, 'effects.log')).toEqual(['work e', 'work d', 'work c', 'work b']);

    await worker!.kill();
    writeFileSync(join(dir, 'recovering'), '');
    writeFileSync(join(dir, 'go'), '');
    await start();
    expect((await client.result(runId)).output).toMatchObject({ sum: 'summed' });

    // a's tool was in flight at the kill and ran again; nothing else did
    expect(lines(dir, 'effects.log')).toEqual(['work e', 'work d', 'work c', 'work b', 'work a']);
    expect(Object.fromEntries(counts(lines(dir, 'models.log')))).toEqual({
      'do-a|1': 1,
      'do-b|1': 1,
      'do-c|1': 1,
      'do-d|1': 1,
      'do-e|1': 1,
      'do-a|2': 1,
      'do-b|2': 1,
      'do-c|2': 1,
      'do-d|2': 1,
      'do-e|2': 1,
      'sum|1': 1,
    });
    // each branch's tool call is recorded under its branch's key
    const after = pgClient({ connectionString: database });
    await after.connect();
    try {
      const { rows } = await after.query(
        "SELECT place FROM june.calls WHERE run_id = $1 AND place LIKE 'tool %' ORDER BY place",
        [runId],
      );
      expect(rows.map((row) => row.place)).toEqual(
        ['a', 'b', 'c', 'd', 'e'].map((item) => `tool [${item}]|do-${item}|do-${item}#0.0`),
      );
    } finally {
      await after.end();
    }
  }, 180_000);
});
