// Runs over DBOS that ask several approvals in one model turn: the requests of a turn are
// published at once, each as its own record, so none is lost to a concurrent write. Every
// request is listed by RunClient.waiting and june runs, each one is answerable, and the run
// finishes. Several rounds of concurrent runs, to give a write race its chances. A call
// approved while other requests of its turn wait is held: listed as such, not as waiting.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunLogEvent } from 'june';
import { RunClient } from 'june/dbos';
import { june, tempProject } from '../cli/cli-harness.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { startWorker, waitFor, type WorkerProcess } from './support.js';

const missing = postgresMissing();
const refundsSource = readFileSync(new URL('./fixtures/refunds.tsx', import.meta.url), 'utf8');
const ORDERS = ['A1', 'B2', 'C3', 'D4'];

describe.runIf(!missing)('runs over DBOS asking four approvals in one turn', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof tempProject>;
  let logs: string;
  let database: string;
  let client: RunClient;
  let worker: WorkerProcess;

  beforeAll(async () => {
    pg = await startPostgres();
    database = pg.url('june_approval_lists');
    project = tempProject();
    project.write('refunds.tsx', refundsSource);
    logs = project.folder('logs');
    worker = await startWorker(project.dir, database, 'worker-lists', { files: ['refunds.tsx'] });
    client = await RunClient.connect(database);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  const refunded = () => {
    try {
      return readFileSync(join(logs, 'refunds.log'), 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };

  /** The approval requests in a finished run's events. */
  const requestsIn = async (runId: string) => {
    const events: RunLogEvent[] = [];
    for await (const event of client.events(runId)) events.push(event);
    return events.filter((event) => event.type === 'approval-request');
  };

  it('lists all four requests of each run, takes an answer to each, and every run finishes', async () => {
    for (let round = 1; round <= 4; round++) {
      const runIds = ['a', 'b', 'c'].map((name) => `lists-${round}-${name}`);
      await Promise.all(
        runIds.map((runId) =>
          client.enqueue({
            workflow: 'refunds',
            runId,
            props: { dir: logs, tag: runId, orders: ORDERS },
          }),
        ),
      );
      for (const runId of runIds)
        await waitFor(
          async () => (await client.waiting(runId)).length === ORDERS.length,
          60_000,
          `the four requests of ${runId} to be listed`,
        );
      // june runs, from another process, shows every one of them
      const listed = await june(['runs', '--database', database], project.dir);
      expect(listed.code).toBe(0);
      for (const runId of runIds) {
        const block = listed.stdout.split(/\n(?=\S)/).find((text) => text.startsWith(runId))!;
        expect(block.match(/^ {2}waiting: /gm)).toHaveLength(ORDERS.length);
      }
      // each request is answerable by its own id
      for (const runId of runIds) {
        const waiting = await client.waiting(runId);
        expect(waiting.map((request) => (request.input as { order: string }).order).sort()).toEqual(
          ORDERS,
        );
        for (const request of waiting)
          expect(await client.approve(runId, { requestId: request.id, approved: true })).toEqual([
            { status: 'applied', request, answer: expect.objectContaining({ approved: true }) },
          ]);
      }
      for (const runId of runIds) {
        expect((await client.result(runId)).output).toBe('refunded 4');
        expect(await requestsIn(runId)).toHaveLength(ORDERS.length);
      }
      for (const runId of runIds)
        expect(
          refunded()
            .filter((line) => line.startsWith(`${runId}:`))
            .sort(),
        ).toEqual(ORDERS.map((order) => `${runId}:${order}`));
    }
  }, 300_000);

  it('holds an approved call while other requests of its turn wait: listed as held, not waiting', async () => {
    const runId = 'held-1';
    await client.enqueue({
      workflow: 'refunds',
      runId,
      props: { dir: logs, tag: runId, orders: ['A1', 'B2'] },
    });
    await waitFor(async () => (await client.waiting(runId)).length === 2, 60_000, 'both requests');
    const [a1, b2] = await client.waiting(runId);
    await client.approve(runId, { requestId: a1!.id, approved: true });
    await waitFor(
      async () => (await client.get(runId)).held.length === 1,
      60_000,
      'the approved call to be held',
    );
    const summary = await client.get(runId);
    expect(summary).toMatchObject({ status: 'running', waiting: [b2], held: [a1] });
    const listed = await june(['runs', '--database', database], project.dir);
    expect(listed.stdout).toContain(`  held: ${a1!.id} · refund`);
    expect(listed.stdout).toContain(`  waiting: ${b2!.id} · refund`);
    expect(refunded().filter((line) => line.startsWith(`${runId}:`))).toEqual([]);

    await client.approve(runId, { requestId: b2!.id, approved: true });
    expect((await client.result(runId)).output).toBe('refunded 2');
    expect((await client.get(runId)).held).toEqual([]);
  }, 120_000);
});
