// A DBOS worker killed (SIGKILL) in the middle of a <Parallel> fan-out of five branches
// (test/engine/fixtures/parallel-fan-out.tsx): the first worker finished the branches' tools
// e, d, c, b and was killed while a's ran; the recovered workflow goes on a, b, c, d, e, the
// other way round. Each branch's calls are recorded under its branch's key, so each finds
// its own record: no tool runs twice and no finished branch calls its model again.
// Approvals too (test/engine/fixtures/parallel-approvals.tsx): two branches wait for approval
// at once, b asked first; killed, the recovery asks a first, and each request waits for its
// own answer, given once (from `june approve --database` and from RunClient). A follower that
// read the run from before the kill (and one that reads it after) shows each answer on its own
// call: trace node ids are named by place, and the events told again are matched by node.
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from 'june/dbos';
import { pgClient } from '../../src/dbos/pg-driver.js';
import { june, tempProject } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import type { Trace, TraceNode } from 'june';
import {
  askedByStart,
  counts,
  followRun,
  lines,
  startWorker,
  waitFor,
  type WorkerProcess,
} from './support.js';

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
      files: ['parallel.tsx', 'parallel-approvals.tsx'],
    });
  };

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_parallel');
    project = tempProject();
    for (const file of readdirSync(fixtures))
      project.write(`fixtures/${file}`, readFileSync(new URL(file, fixtures), 'utf8'));
    project.write('parallel.tsx', "export { default } from './fixtures/parallel-fan-out.tsx';\n");
    project.write(
      'parallel-approvals.tsx',
      "export { default } from './fixtures/parallel-approvals.tsx';\n",
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

  it('recovers two branches waiting for approval at once, asked the other way round: each is answered once, each tool runs once, no model call is made again, and followers show each answer on its own call', async () => {
    const dir = project.folder('logs-approvals');
    const runId = 'parallel-approvals';
    const [a, b] = ['[a]/do-a#0.0', '[b]/do-b#0.0'];
    const waiting = async () => (await client.waiting(runId)).map((request) => request.id);
    const works = () => lines(dir, 'effects.log').filter((line) => line.startsWith('work '));
    await client.enqueue({ workflow: 'parallel-approvals', runId, props: { dir } });
    // a follower from the start, through the kill and the recovery
    const followed = followRun(client, runId);
    await waitFor(async () => (await waiting()).includes(b), 60_000, "b's approval");
    appendFileSync(join(dir, 'effects.log'), 'b asked\n'); // lets a's branch go on
    await waitFor(async () => (await waiting()).includes(a), 60_000, "a's approval");
    expect(await waiting()).toEqual([b, a]);
    // the request's event goes out in the run's next batch of events, up to 10 ms after its record
    await waitFor(
      async () => (await askedByStart(database, runId))[0]?.length === 2,
      30_000,
      "a's request in the events",
    );
    expect(await askedByStart(database, runId)).toEqual([[b, a]]);
    const modelsBefore = lines(dir, 'models.log');
    expect(Object.fromEntries(counts(modelsBefore))).toEqual({ 'do-a|1': 1, 'do-b|1': 1 });

    await worker!.kill();
    await start();
    // recovered: both branches' model calls answered from their records, a's asks first now
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

    // b from june approve, a from the client
    const approved = await june(['approve', runId, b, '--database', database], project.dir);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`approved ${b} of run ${runId}`);
    // the run took it, and its trace (read from the events told twice) shows that
    expect(approved.stderr).not.toContain('has not taken');
    await waitFor(() => works().includes('work b'), 60_000, 'work b');
    expect(await waiting()).toEqual([a]);
    const [applied] = await client.approve(runId, { requestId: a, approved: true });
    expect(applied?.status).toBe('applied');
    // the first answer stands: another answer to b changes nothing
    const [late] = await client.approve(runId, { requestId: b, approved: false });
    expect(late?.status).not.toBe('applied');
    expect((await client.result(runId)).output).toMatchObject({ sum: 'summed' });

    // each tool once; the model calls made before the kill were not made again
    expect(works()).toEqual(['work b', 'work a']);
    const models = lines(dir, 'models.log');
    expect(models.slice(0, modelsBefore.length)).toEqual(modelsBefore);
    expect(Object.fromEntries(counts(models))).toEqual({
      'do-a|1': 1,
      'do-b|1': 1,
      'do-a|2': 1,
      'do-b|2': 1,
      'sum|1': 1,
    });
    // each answered once: stored once, taken once by the run, recorded by place
    const db = pgClient({ connectionString: database });
    await db.connect();
    try {
      const stored = await db.query(
        `SELECT request_id, source, answer->>'approved' AS approved FROM june.answers WHERE run_id = $1 ORDER BY request_id`,
        [runId],
      );
      expect(stored.rows).toEqual([
        { request_id: a, source: 'database', approved: 'true' },
        { request_id: b, source: 'cli', approved: 'true' },
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
        'tool [a]|do-a|do-a#0.0',
        'tool [b]|do-b|do-b#0.0',
      ]);
    } finally {
      await db.end();
    }
    expect((await client.approvals(runId)).decisions).toEqual({ [a]: true, [b]: true });

    // what followers show: each step's one call, approved from where its answer came
    const shown = {
      'do-a': [{ status: 'succeeded', approval: { status: 'approved', source: 'database' } }],
      'do-b': [{ status: 'succeeded', approval: { status: 'approved', source: 'cli' } }],
    };
    await followed.done;
    expect(workCalls(followed.live.trace!)).toEqual(shown);
    expect(followed.live.trace!.status).toBe('succeeded');
    // each request, answer and call given once, though the recovery told them again
    const told = (type: string) =>
      followed.events.filter((event) => event.type === type).map((event) => event.nodeId);
    for (const type of ['approval-request', 'approval-response', 'tool-call', 'tool-result'])
      expect(new Set(told(type)).size, type).toBe(2);
    expect(told('approval-request')).toHaveLength(2);
    const later = followRun(client, runId);
    await later.done;
    expect(workCalls(later.live.trace!)).toEqual(shown);
    expect(later.events.map((event) => [event.type, event.nodeId])).toEqual(
      followed.events.map((event) => [event.type, event.nodeId]),
    );
  }, 180_000);
});

/** The `work` calls of a trace by the step that made them: status, approval status and source. */
function workCalls(trace: Trace): Record<string, unknown[]> {
  const calls: Record<string, unknown[]> = {};
  const walk = (node: TraceNode, step?: string) => {
    if (node.kind === 'tool' && node.name === 'work')
      (calls[step ?? '?'] ??= []).push({
        status: node.status,
        approval: { status: node.approval?.status, source: node.approval?.source },
      });
    for (const child of node.children) walk(child, node.kind === 'step' ? node.name : step);
  };
  walk(trace.root);
  return calls;
}
