// A kill -9 in the middle of a fan-out over DBOS. Step "fan" calls the composite tool `fetch`
// three times in one turn (test/engine/fixtures/fan-out.tsx, `approvingA`): the child runs'
// tools start c, b, then a, whose `get` waits for approval. The worker is killed while it
// waits; recovered, the children's model calls are answered from their records at once, so
// their tools start a (asking again), b, c: the other way round. Each finds its own record.
// Approvals still take DBOS step numbers in the order they are asked: when every `get` needs
// approval (`approvingAll`), the recovery asks them in another order, and the run stops with
// journal-mismatch instead of giving one request another's answer.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { pgClient } from '../../src/dbos/pg-driver.js';
import { tempProject } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { counts, lines, startWorker, waitFor, type WorkerProcess } from './support.js';

const missing = postgresMissing();
const fixtures = new URL('../engine/fixtures/', import.meta.url);

describe.runIf(!missing)('a run over DBOS killed in the middle of a fan-out', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof tempProject>;
  let database: string;
  let client: RunClient;
  let worker: WorkerProcess | undefined;
  const start = async () => {
    worker = await startWorker(project.dir, database, 'fan-worker', {
      files: ['fan-out.tsx', 'fan-out-all.tsx'],
    });
  };

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_fan_out');
    project = tempProject();
    for (const file of readdirSync(fixtures))
      project.write(`fixtures/${file}`, readFileSync(new URL(file, fixtures), 'utf8'));
    project.write(
      'fan-out.tsx',
      "export { approvingA as default } from './fixtures/fan-out.tsx';\n",
    );
    project.write(
      'fan-out-all.tsx',
      "export { approvingAll as default } from './fixtures/fan-out.tsx';\n",
    );
    await start();
    client = await RunClient.connect(database);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  it('recovers with its tools started the other way round: no tool runs twice, no model call is made again', async () => {
    const dir = project.folder('logs');
    const runId = 'fan-killed';
    await client.enqueue({ workflow: 'fan-out', runId, props: { dir } });
    await waitFor(async () => (await client.waiting(runId)).length > 0, 60_000, "a's approval");
    const [asked] = await client.waiting(runId);
    expect(asked).toMatchObject({ tool: 'get', id: 'fan#0.0/get#0.0' });
    expect(lines(dir, 'effects.log')).toEqual(['get c', 'get b']);

    await worker!.kill();
    await start();
    await waitFor(
      async () => (await client.waiting(runId)).some((request) => request.id === asked!.id),
      60_000,
      "a's approval, asked again",
    );
    const [applied] = await client.approve(runId, { requestId: asked!.id, approved: true });
    expect(applied?.status).toBe('applied');
    expect((await client.result(runId)).output).toBe('fanned');

    // 0 doubled tools, 0 repeated model calls: b's and c's child runs were answered from their records
    expect(lines(dir, 'effects.log')).toEqual(['get c', 'get b', 'get a']);
    expect(Object.fromEntries(counts(lines(dir, 'models.log')))).toEqual({
      'fan|1': 1,
      'fetch:get|1': 3,
      'fetch:get|2': 3,
      'fan|2': 1,
    });
    // each call's record is keyed by its place: the composite call around it, its step, its call id
    const db = pgClient({ connectionString: database });
    await db.connect();
    try {
      const { rows } = await db.query(
        "SELECT place FROM june.calls WHERE run_id = $1 AND place LIKE 'tool %' ORDER BY place",
        [runId],
      );
      expect(rows.map((row) => row.place)).toEqual(
        ['fan#0.0', 'fan#0.1', 'fan#0.2'].map((call) => `tool ${call}|fetch:get|get#0.0`),
      );
    } finally {
      await db.end();
    }
  }, 180_000);

  it('stops with journal-mismatch, running nothing twice, when approvals answered before the kill are asked in another order', async () => {
    const dir = project.folder('logs-all');
    const runId = 'fan-approvals';
    await client.enqueue({ workflow: 'fan-out-all', runId, props: { dir } });
    const answer = async (item: string) => {
      const id = `fan#0.${'abc'.indexOf(item)}/get#0.0`;
      await waitFor(
        async () => (await client.waiting(runId)).some((request) => request.id === id),
        60_000,
        `${item}'s approval`,
      );
      const [applied] = await client.approve(runId, { requestId: id, approved: true });
      expect(applied?.status).toBe('applied');
      await waitFor(() => lines(dir, 'effects.log').includes(`get ${item}`), 60_000, `get ${item}`);
    };
    await answer('c');
    await answer('b');
    await waitFor(async () => (await client.waiting(runId)).length > 0, 60_000, "a's approval");

    await worker!.kill();
    await start();
    await expect(client.result(runId)).rejects.toMatchObject({
      code: 'journal-mismatch',
      message: expect.stringContaining('were asked in another order'),
    });
    expect(lines(dir, 'effects.log')).toEqual(['get c', 'get b']);
  }, 180_000);
});
