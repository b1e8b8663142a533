// The chat round trip with the run on a DBOS worker: the page's first message queues a run,
// its approval answer reaches the run through PostgreSQL, the tool runs once on the worker,
// and the server process streams the run's events from the database. Bad answers are 4xx.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunClient } from 'june/dbos';
import { chatHandler, type ChatHandler, type JuneUIMessage } from 'june/web';
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
    project.write('prompts.log', '');
    const database = pg.url('june_web');
    worker = await startWorker(project.dir, database, 'web-worker', {
      files: ['shop.tsx'],
      env: {
        SHOP_REFUNDS: join(project.dir, 'refunds.log'),
        SHOP_PROMPTS: join(project.dir, 'prompts.log'),
      },
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
    // the run ended (its last event is out before DBOS marks the workflow done: wait for that)
    await runs.result(runId);
    expect((await reconnect()).status).toBe(204);

    // the same answer again, a run that does not exist, a request the run never made
    const twice = await post(handler, { id: 'web1', messages: [user, approved] });
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({ error: { code: 'approval-answered' } });
    const other = { ...approved, metadata: { runId: 'no-such-run', waiting: true } };
    const gone = await post(handler, { id: 'web1', messages: [user, other] });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error: { code: 'chat-run-missing' } });
    const stranger = JSON.parse(JSON.stringify(approved).replaceAll('turn-1#0.0', 'turn-1#9.9'));
    const unknown = await post(handler, { id: 'web1', messages: [user, stranger] });
    expect(unknown.status).toBe(409);
    expect(await unknown.json()).toMatchObject({ error: { code: 'approval-unknown' } });
    expect(refunds()).toBe('A1\n');
  });

  it("an image attached to the message reaches the worker's model as a file part", async () => {
    // a 1x1 PNG
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const user: JuneUIMessage = {
      id: 'u1',
      role: 'user',
      parts: [
        { type: 'text', text: 'Refund A1, see the receipt' },
        { type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${png}` },
      ],
    };
    const first = await readMessage(await post(handler, { id: 'pic', messages: [user] }));
    const runId = first.metadata!.runId;
    const approved = answered(first, 'tool-refund', true);
    await readMessage(await post(handler, { id: 'pic', messages: [user, approved] }), approved);
    const { trace } = await runs.result(runId);
    expect(trace.root.status).toBe('succeeded');
    // the model's first call of the run got the text and the image
    const prompts = readFileSync(join(project.dir, 'prompts.log'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('Refund A1, see the receipt'))
      .map((line) => JSON.parse(line) as { role: string; content: Array<Record<string, any>> });
    expect(prompts.length).toBeGreaterThan(0);
    const [text, file] = prompts[0]!.content;
    expect(text).toMatchObject({ type: 'text', text: 'Refund A1, see the receipt' });
    expect(file).toMatchObject({ type: 'file', mediaType: 'image/png', data: { type: 'data' } });
    const data = file!.data.data as string | Record<string, number>;
    const bytes =
      typeof data === 'string' ? Buffer.from(data, 'base64') : Buffer.from(Object.values(data));
    expect(bytes.toString('base64')).toBe(png);
  });

  it('a request carrying 300 messages queues one run that runs its new turn only', async () => {
    const before = refunds();
    const conversation = Array.from({ length: 299 }, (_, i) => [
      userMessage(`q${i}`, `Question ${i}`),
      { id: `a${i}`, role: 'assistant' as const, parts: [{ type: 'text' as const, text: 'ok' }] },
    ]).flat();
    const messages = [...conversation, userMessage('q299', 'Refund A1')];
    const first = await readMessage(await post(handler, { id: 'long', messages }));
    expect(first.metadata).toEqual({ runId: 'long-300', waiting: true });
    const approved = answered(first, 'tool-refund', true);
    const done = await readMessage(
      await post(handler, { id: 'long', messages: [...messages, approved] }),
      approved,
    );
    // one turn: the script has no second one, so a run of 300 turns would have failed
    expect(textOf(done)).toEqual(['Checking order A1.', 'Done: A1 is refunded.']);
    expect(done.parts.filter((part) => part.type === 'data-june-step')).toHaveLength(1);
    expect((await runs.get('long-300')).status).toBe('succeeded');
    expect(refunds()).toBe(`${before}A1\n`);
  });

  it('a chat reaches only its own runs, also when another chat id starts with its id', async () => {
    const before = refunds();
    const user = userMessage('u1', 'Refund A1');
    const mine = await readMessage(await post(handler, { id: 'web2', messages: [user] }));
    const theirs = await readMessage(await post(handler, { id: 'web2-b', messages: [user] }));
    expect(mine.metadata).toEqual({ runId: 'web2-1', waiting: true });
    expect(theirs.metadata).toEqual({ runId: 'web2-b-1', waiting: true });

    // the newer run of chat web2-b is not chat web2's to stream again
    const again = await readMessage(
      await handler(new Request('http://127.0.0.1/api/chat/web2/stream')),
    );
    expect(again.metadata).toMatchObject({ runId: 'web2-1' });

    // chat web2-b can neither answer web2's request nor deny it with a new message
    const approved = answered(mine, 'tool-refund', true);
    for (const messages of [
      [user, approved],
      [user, mine, userMessage('u2', 'Never mind')],
    ]) {
      const refused = await post(handler, { id: 'web2-b', messages });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({
        error: { code: 'chat-run-foreign', message: expect.stringMatching(/^june: run web2-1 /) },
      });
    }
    expect((await runs.approvals('web2-1')).waiting).toHaveLength(1);

    // each owner answers its own run
    const denied = answered(theirs, 'tool-refund', false, 'not now');
    await readMessage(await post(handler, { id: 'web2-b', messages: [user, denied] }), denied);
    const done = await readMessage(
      await post(handler, { id: 'web2', messages: [user, approved] }),
      approved,
    );
    expect(textOf(done).at(-1)).toBe('Done: A1 is refunded.');
    expect(refunds()).toBe(`${before}A1\n`);
  });
});
