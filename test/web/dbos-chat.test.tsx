// The chat round trip with the run on a DBOS worker: the page's first message queues a run,
// its approval answer reaches the run through PostgreSQL, the tool runs once on the worker,
// and the server process streams the run's events from the database. Bad answers are 4xx.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunClient } from 'june/dbos';
import { chatHandler, type ChatHandler } from 'june/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempProject } from '../cli/cli-harness.js';
import { startWorker, type WorkerProcess } from '../dbos/support.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { answered, post, readMessage, textOf, toolPart, userMessage } from './support.js';

const missing = postgresMissing();
const shopSource = readFileSync(new URL('./fixtures/dbos-shop.tsx', import.meta.url), 'utf8');

describe.runIf(!missing)('chatHandler with runs on DBOS workers', () => {
  let pg: TestPostgres;
  let project: ReturnType<typeof tempProject>;
  let worker: WorkerProcess;
  let runs: RunClient;
  let handler: ChatHandler;
  const refunds = () => readFileSync(join(project.dir, 'refunds.log'), 'utf8');

  beforeAll(async () => {
    pg = await startPostgres();
    project = tempProject();
    project.write('shop.tsx', shopSource);
    project.write('refunds.log', '');
    const database = pg.url('june_web');
    worker = await startWorker(project.dir, database, 'web-worker', {
      files: ['shop.tsx'],
      env: { SHOP_REFUNDS: join(project.dir, 'refunds.log') },
    });
    runs = await RunClient.connect(database);
    handler = chatHandler({ durable: { runs, workflow: 'shop' } });
  }, 120_000);

  afterAll(async () => {
    await runs?.close();
    await worker?.stop().catch(() => {});
    await pg?.stop();
    project?.remove();
  });

  it('queues the run, sends the approval through the database, streams the rest once', async () => {
    const user = userMessage('u1', 'Refund A1');
    const first = await readMessage(await post(handler, { id: 'web1', messages: [user] }));
    expect(first.metadata).toMatchObject({ waiting: true });
    const runId = first.metadata!.runId;
    expect(textOf(first)).toEqual(['Checking order A1.']);
    expect(toolPart(first, 'tool-refund')).toMatchObject({
      state: 'approval-requested',
      input: { order: 'A1' },
    });
    expect(refunds()).toBe('');
    expect((await runs.get(runId)).status).toBe('running');
    // a reloaded page reconnects, here through another server process: the same message again
    const reconnect = () =>
      chatHandler({ durable: { runs, workflow: 'shop' } })(
        new Request('http://127.0.0.1/api/chat/web1/stream'),
      );
    const again = await readMessage(await reconnect());
    expect(again.id).toBe(first.id);
    expect(again.parts).toEqual(first.parts);

    const approved = answered(first, 'tool-refund', true);
    const second = await readMessage(
      await post(handler, { id: 'web1', messages: [user, approved] }),
      approved,
    );
    expect(second.metadata).toEqual({ runId, waiting: false });
    expect(toolPart(second, 'tool-refund')).toMatchObject({
      state: 'output-available',
      output: 'refunded A1',
    });
    expect(textOf(second)).toEqual(['Checking order A1.', 'Done: A1 is refunded.']);
    expect(refunds()).toBe('A1\n');
    expect((await reconnect()).status).toBe(204); // the run ended

    // the same answer again, a run that does not exist, a request the run never made
    const twice = await post(handler, { id: 'web1', messages: [user, approved] });
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({ error: { code: 'approval-answered' } });
    const other = { ...approved, metadata: { runId: 'no-such-run', waiting: true } };
    const gone = await post(handler, { id: 'web1', messages: [user, other] });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error: { code: 'chat-run-missing' } });
    const stranger = JSON.parse(JSON.stringify(approved).replaceAll('chat#0.0', 'chat#9.9'));
    const unknown = await post(handler, { id: 'web1', messages: [user, stranger] });
    expect(unknown.status).toBe(409);
    expect(await unknown.json()).toMatchObject({ error: { code: 'approval-unknown' } });
    expect(refunds()).toBe('A1\n');
  });
});
