// The page's edit or answer instead of the tool, over DBOS workers: dbosChatHandler sends it
// with the answer through RunClient.approve, a bad edit is refused with 409 and the request
// still waits, and a good one runs the refund once with the edited input.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunClient } from 'june/dbos';
import { chatHandler, type ChatHandler } from 'june/web';
import { approvalWith } from 'june/web/approval-with';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempProject } from '../cli/cli-harness.js';
import { startWorker, waitFor, type WorkerProcess } from '../dbos/support.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { answered, post, readMessage, toolPart, userMessage } from './support.js';

const missing = postgresMissing();
const shopSource = readFileSync(new URL('./fixtures/dbos-shop.tsx', import.meta.url), 'utf8');

describe.runIf(!missing)('chatHandler over DBOS: edits and answers instead of the tool', () => {
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
    const database = pg.url('june_web_edits');
    worker = await startWorker(project.dir, database, 'web-edits-worker', {
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

  it('a bad edit is refused with 409 and waits; a good one runs the refund with it', async () => {
    const user = userMessage('u1', 'Refund A1');
    const first = await readMessage(await post(handler, { id: 'e1', messages: [user] }));
    const runId = first.metadata!.runId;
    const id = toolPart(first, 'tool-refund')!.approval.id as string;
    const approved = answered(first, 'tool-refund', true);

    const bad = await post(handler, {
      id: 'e1',
      messages: [user, approved],
      ...approvalWith(id, { input: { order: 7 } }),
    });
    expect(bad.status).toBe(409);
    expect(await bad.json()).toMatchObject({
      error: {
        code: 'approval-input-invalid',
        message: expect.stringContaining('june: the edited input for the "refund" call'),
      },
    });
    expect((await runs.waiting(runId)).length).toBe(1);

    const good = await post(handler, {
      id: 'e1',
      messages: [user, approved],
      ...approvalWith(id, { input: { order: 'B2' } }),
    });
    const message = await readMessage(good, approved);
    expect(toolPart(message, 'tool-refund')).toMatchObject({
      state: 'output-available',
      input: { order: 'B2' },
      output: 'refunded B2',
    });
    await waitFor(() => refunds().includes('B2'), 30_000, 'the refund');
    expect(refunds()).toBe('B2\n');
  }, 120_000);

  it('an answer instead of the tool: no refund, the model reads the answer', async () => {
    const user = userMessage('u1', 'Refund A1');
    const first = await readMessage(await post(handler, { id: 'e2', messages: [user] }));
    const id = toolPart(first, 'tool-refund')!.approval.id as string;
    const denied = answered(first, 'tool-refund', false);
    const message = await readMessage(
      await post(handler, {
        id: 'e2',
        messages: [user, denied],
        ...approvalWith(id, { output: 'refunded by hand' }),
      }),
      denied,
    );
    expect(toolPart(message, 'tool-refund')).toMatchObject({
      state: 'output-available',
      output: 'refunded by hand',
    });
    expect(refunds()).toBe('B2\n');
    expect(readFileSync(join(project.dir, 'prompts.log'), 'utf8')).toContain('refunded by hand');
  }, 120_000);
});
