// A guarded and budgeted run over DBOS workers and PostgreSQL (fixtures/policies.tsx): the
// guard rejects a forced deploy, escalates a deploy to prod (answered over the database), and
// the budget, spent before the last model call, asks to allow more (answered the same way).
// Each deploy that runs, runs once; the trace keeps every decision and who answered.
import { userInfo } from 'node:os';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceNode } from 'june';
import { RunClient } from 'june/dbos';
import { june } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { ledgerProject, lines, startWorker, waitFor, type WorkerProcess } from './support.js';

const missing = postgresMissing();
const fixture = readFileSync(new URL('./fixtures/policies.tsx', import.meta.url), 'utf8');

function allNodes(node: TraceNode): TraceNode[] {
  return [node, ...node.children.flatMap(allNodes)];
}

describe.runIf(!missing)('a guarded and budgeted run over DBOS', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof ledgerProject>;
  let database: string;
  let client: RunClient;
  let worker: WorkerProcess;

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_policies');
    project = ledgerProject();
    project.write('policies.tsx', fixture);
    worker = await startWorker(project.dir, database, 'policies', { files: ['policies.tsx'] });
    client = await RunClient.connect(database);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  it('a rejection, an escalation answered and a budget ask answered: each deploy runs once', async () => {
    await client.enqueue({ workflow: 'policies', runId: 'ship', props: { dir: project.logs } });
    // the guard escalated the deploy to prod: answered with june approve, over the database
    await waitFor(async () => (await client.waiting('ship')).length > 0, 60_000, 'the escalation');
    expect(await client.waiting('ship')).toMatchObject([
      { tool: 'deploy', input: { env: 'prod' } },
    ]);
    const escalation = await june(
      ['approve', 'ship', '--all', '--database', database],
      project.dir,
    );
    expect(escalation.code).toBe(0);
    // the budget is spent before the last call: its request waits, and is answered the same way
    await waitFor(
      async () => (await client.waiting('ship')).some((request) => request.tool === 'june-budget'),
      60_000,
      "the budget's request",
    );
    expect(lines(project.logs, 'deploys.log')).toEqual(['prod', 'staging']);
    const budget = await june(['approve', 'ship', '--all', '--database', database], project.dir);
    expect(budget.code).toBe(0);

    const { trace } = await client.result('ship');
    expect(trace.status).toBe('succeeded');
    expect(lines(project.logs, 'deploys.log')).toEqual(['prod', 'staging']);
    const nodes = allNodes(trace.root);
    const decisions = nodes.flatMap((node) => node.guards ?? []);
    expect(
      decisions.filter((decision) => decision.check === 'tool-input').map((d) => d.action),
    ).toEqual(['reject', 'escalate', 'allow']);
    const person = { source: 'cli', answeredBy: userInfo().username };
    const deployProd = nodes.find(
      (node) =>
        node.name === 'deploy' &&
        (node.input as { env?: string; force?: boolean }).env === 'prod' &&
        !(node.input as { force?: boolean }).force,
    );
    expect(deployProd?.approval).toMatchObject({
      status: 'approved',
      guard: { name: 'deploy-policy' },
      ...person,
    });
    const request = nodes.find((node) => node.name === 'june-budget');
    expect(request?.approval).toMatchObject({
      status: 'approved',
      budget: { name: 'ship-budget', spent: { tokens: 300 }, cap: { tokens: 250 } },
      ...person,
    });
    const step = nodes.find((node) => node.kind === 'step' && node.name === 'ship');
    expect(step?.budgets?.map((entry) => entry.action)).toEqual(['ask', 'allow']);
    expect(trace.root.usage?.totalTokens).toBe(400);
  }, 180_000);
});

describe.runIf(missing)('a guarded and budgeted run over DBOS', () => {
  it('needs PostgreSQL', () => {
    throw new Error(missing);
  });
});
