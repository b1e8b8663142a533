// A kill -9 in the middle of a fan-out over DBOS. Step "fan" calls the composite tool `fetch`
// three times in one turn (test/engine/fixtures/fan-out.tsx, `approvingA`): the child runs'
// tools start c, b, then a, whose `get` waits for approval. The worker is killed while it
// waits; recovered, the children's model calls are answered from their records at once, so
// their tools start a (asking again), b, c: the other way round. Each finds its own record.
// Approvals are recorded by place too: when two child runs wait for approval at once
// (`approvingAtOnce`: b asked, then a), the recovery asks them a, then b, and each request
// waits for its own answer, given once from `june approve --database` or the answer desk.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { pgClient } from '../../src/dbos/pg-driver.js';
import { databaseApprovalDesk } from '../../src/host/database-approval-desk.js';
import { DatabaseRuns } from '../../src/host/database-runs.js';
import { june, tempProject } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import {
  askedByStart,
  counts,
  lines,
  startWorker,
  waitFor,
  type WorkerProcess,
} from './support.js';

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
      files: ['fan-out.tsx', 'fan-out-once.tsx'],
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
      'fan-out-once.tsx',
      "export { approvingAtOnce as default } from './fixtures/fan-out.tsx';\n",
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

  it('carries on a run whose waiting approval was published as a DBOS event (a June from before approvals were recorded by place)', async () => {
    const dir = project.folder('logs-event');
    const runId = 'fan-event';
    const a = 'fan#0.0/get#0.0';
    await client.enqueue({ workflow: 'fan-out', runId, props: { dir } });
    await waitFor(async () => (await client.waiting(runId)).length > 0, 60_000, "a's approval");
    await worker!.kill();
    // the request as that June kept it: no row in june.calls, the run's DBOS event instead
    const db = pgClient({ connectionString: database });
    await db.connect();
    try {
      const { rows } = await db.query(
        `DELETE FROM june.calls WHERE run_id = $1 AND place = $2 RETURNING record`,
        [runId, `approval ${a}`],
      );
      const { askedAt: _askedAt, ...request } = JSON.parse(String(rows[0]!.record)) as Record<
        string,
        unknown
      >;
      await db.query(
        `INSERT INTO dbos.workflow_events (workflow_uuid, key, value, serialization) VALUES ($1, 'june.approval:0', $2, 'portable_json')`,
        [runId, JSON.stringify(request)],
      );
      expect(await client.waiting(runId)).toEqual([request]);
      const [applied] = await client.approve(runId, { requestId: a, approved: true });
      expect(applied?.status).toBe('applied');
      // such a run's worker receives its answer as a DBOS message: it is sent with the stored row
      const sent = await db.query(
        `SELECT topic FROM dbos.notifications WHERE destination_uuid = $1`,
        [runId],
      );
      expect(sent.rows).toEqual([{ topic: `june.approval:${a}` }]);
    } finally {
      await db.end();
    }

    await start();
    expect((await client.result(runId)).output).toBe('fanned');
    expect(lines(dir, 'effects.log')).toEqual(['get c', 'get b', 'get a']);
    expect((await client.approvals(runId)).decisions).toEqual({ [a]: true });
  }, 180_000);

  it('cancels a run while a child run waits for approval: it ends cancelled, and an answer after that is refused', async () => {
    const dir = project.folder('logs-cancel');
    const runId = 'fan-cancel';
    await client.enqueue({ workflow: 'fan-out', runId, props: { dir } });
    await waitFor(async () => (await client.waiting(runId)).length > 0, 60_000, "a's approval");
    const cancelled = await june(['cancel', runId, '--database', database], project.dir);
    expect(cancelled.stdout).toBe(`cancelled run ${runId}\n`);
    await waitFor(
      async () => (await client.get(runId)).status === 'cancelled',
      30_000,
      'cancelled',
    );
    await expect(
      client.approve(runId, { requestId: 'fan#0.0/get#0.0', approved: true }),
    ).rejects.toMatchObject({ code: 'dbos-run-finished' });
    expect(lines(dir, 'effects.log')).toEqual(['get c', 'get b']);
  }, 120_000);

  it('recovers two child runs waiting for approval at once, asked the other way round: each is answered once, each tool runs once, no model call is made again', async () => {
    const dir = project.folder('logs-at-once');
    const runId = 'fan-at-once';
    const [a, b] = ['fan#0.0/get#0.0', 'fan#0.1/get#0.0'];
    const waiting = async () => (await client.waiting(runId)).map((request) => request.id);
    const gets = () => lines(dir, 'effects.log').filter((line) => line.startsWith('get '));
    await client.enqueue({ workflow: 'fan-out-once', runId, props: { dir } });
    await waitFor(async () => (await waiting()).includes(b), 60_000, "b's approval");
    appendFileSync(join(dir, 'effects.log'), 'b asked\n'); // lets a's child run go on
    await waitFor(async () => (await waiting()).includes(a), 60_000, "a's approval");
    expect(await waiting()).toEqual([b, a]);
    expect(await askedByStart(database, runId)).toEqual([[b, a]]);
    expect(gets()).toEqual(['get c']);
    const modelsBefore = lines(dir, 'models.log');

    await worker!.kill();
    await start();
    // recovered: both child runs' model calls answered from their records, a's asks first now
    await waitFor(
      async () => (await askedByStart(database, runId))[1]?.length === 2,
      60_000,
      'both approvals asked again',
    );
    expect(await askedByStart(database, runId)).toEqual([
      [b, a],
      [a, b],
    ]);
    expect(await waiting()).toEqual([b, a]);

    // b from june approve; a from the answer desk (Studio over the database)
    const approved = await june(['approve', runId, b, '--database', database], project.dir);
    expect(approved.stderr).toBe('');
    expect(approved.stdout).toContain(`approved ${b} of run ${runId}`);
    await waitFor(() => gets().includes('get b'), 60_000, 'get b');
    expect(await waiting()).toEqual([a]);
    const runs = DatabaseRuns.over(client, { database });
    try {
      const desk = databaseApprovalDesk(runs);
      // the first answer stands: b answered, another answer to it changes nothing
      await expect(
        desk.answer(runId, { key: `${runId}/${b}`, approved: false }),
      ).rejects.toMatchObject({
        status: 409,
        message: expect.stringContaining('was answered already'),
      });
      await desk.answer(runId, { key: `${runId}/${a}`, approved: true, answeredBy: 'ana' });
    } finally {
      runs.close();
    }
    expect((await client.result(runId)).output).toBe('fanned');

    // each tool once; the model calls made before the kill were not made again
    expect(gets()).toEqual(['get c', 'get b', 'get a']);
    const models = lines(dir, 'models.log');
    expect(models.slice(0, modelsBefore.length)).toEqual(modelsBefore);
    expect(Object.fromEntries(counts(models.slice(modelsBefore.length)))).toEqual({
      'fetch:get|2': 2,
      'fan|2': 1,
    });
    expect(Object.fromEntries(counts(models))).toEqual({
      'fan|1': 1,
      'fetch:get|1': 3,
      'fetch:get|2': 3,
      'fan|2': 1,
    });
    // each answered once, as given: stored once, taken once by the run, recorded by place
    const db = pgClient({ connectionString: database });
    await db.connect();
    try {
      const stored = await db.query(
        `SELECT request_id, source, answer->>'answeredBy' AS by FROM june.answers WHERE run_id = $1 ORDER BY request_id`,
        [runId],
      );
      expect(stored.rows).toEqual([
        { request_id: a, source: 'studio', by: 'ana' },
        { request_id: b, source: 'cli', by: userInfo().username },
      ]);
      const placed = await db.query(
        `SELECT place FROM june.calls WHERE run_id = $1 AND place NOT LIKE 'model %' ORDER BY place`,
        [runId],
      );
      expect(placed.rows.map((row) => row.place)).toEqual([
        `answer ${a}`,
        `answer ${b}`,
        `approval ${a}`,
        `approval ${b}`,
        ...['fan#0.0', 'fan#0.1', 'fan#0.2'].map((call) => `tool ${call}|fetch:get|get#0.0`),
      ]);
    } finally {
      await db.end();
    }
    const approvals = await client.approvals(runId);
    expect(approvals.waiting).toEqual([]);
    expect(approvals.decisions).toEqual({ [b]: true, [a]: true });
  }, 180_000);
});
