// An approval answered through the database records where it came from: `june approve`
// as `database`, by the user who ran it, at the time it was sent; the run's events, its
// trace and the message DBOS recorded for it (the run's journal over DBOS) all say so.
import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunLogEvent, TraceNode } from 'june';
import { RunClient } from 'june/dbos';
import { june } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { ledgerProject, startWorker, waitFor, type WorkerProcess } from './support.js';

const missing = postgresMissing();

describe.runIf(!missing)('runs over DBOS: who answered an approval, through what and when', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof ledgerProject>;
  let database: string;
  let client: RunClient;
  let worker: WorkerProcess;

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_answer_origin');
    project = ledgerProject();
    worker = await startWorker(project.dir, database, 'worker-a');
    client = await RunClient.connect(database);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  const enqueueWaiting = async (runId: string) => {
    await client.enqueue({
      workflow: 'ledger',
      runId,
      props: { dir: project.logs, n: 1, approve: true },
    });
    await waitFor(async () => (await client.waiting(runId)).length > 0, 60_000, 'the approval');
  };

  const answerOf = async (runId: string) => {
    const { trace } = await client.result(runId);
    const events: RunLogEvent[] = [];
    for await (const event of client.events(runId)) events.push(event);
    const response = events.find((event) => event.type === 'approval-response')!;
    const tools: TraceNode[] = [];
    const walk = (node: TraceNode) => (
      node.kind === 'tool' && tools.push(node),
      node.children.forEach(walk)
    );
    walk(trace.root);
    return { response, approval: tools.find((node) => node.approval)!.approval! };
  };

  it('june approve: database, the user, the time it was sent', async () => {
    await enqueueWaiting('by-cli');
    const before = new Date().toISOString();
    const answered = await june(
      ['approve', 'by-cli', '--all', '--database', database],
      project.dir,
    );
    expect(answered.code).toBe(0);
    const { response, approval } = await answerOf('by-cli');
    const origin = { source: 'cli', answeredBy: userInfo().username };
    expect(response).toMatchObject({ approved: true, automatic: false, ...origin });
    const answeredAt = (response as { answeredAt: string }).answeredAt;
    expect(answeredAt >= before).toBe(true);
    expect(approval).toMatchObject({ status: 'approved', ...origin, answeredAt });
    expect(approval).not.toHaveProperty('automatic');
  }, 180_000);

  it('RunClient.approve from a program: its own source and answeredBy; a second answer is not applied', async () => {
    await enqueueWaiting('by-client');
    await client.approve('by-client', {
      all: true,
      approved: false,
      reason: 'not now',
      answeredBy: 'ops-bot',
      source: 'pager',
    });
    // another answer, from elsewhere, while the first may not be taken yet: the first stands
    const again = await client.approve('by-client', {
      requestId: 'entry#2.0',
      approved: true,
      answeredBy: 'someone else',
    });
    expect(again).toEqual([
      {
        status: 'answered',
        request: expect.objectContaining({ id: 'entry#2.0', tool: 'publish' }),
        answer: expect.objectContaining({
          approved: false,
          reason: 'not now',
          source: 'pager',
          answeredBy: 'ops-bot',
        }),
      },
    ]);
    const { response, approval } = await answerOf('by-client');
    expect(response).toMatchObject({
      approved: false,
      reason: 'not now',
      source: 'pager',
      answeredBy: 'ops-bot',
    });
    expect(approval).toMatchObject({ status: 'denied', source: 'pager', answeredBy: 'ops-bot' });
  }, 180_000);
});
