// The chat round trip over DBOS workers when one model turn asks two approvals and the page
// answers one: the approved call is held until the other is answered, so the response ends
// as waiting (it does not follow the run forever), the answer stands, and the turn goes on
// once the other answer comes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunClient } from 'june/dbos';
import { chatHandler, type ChatHandler, type JuneUIMessage } from 'june/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempProject } from '../cli/cli-harness.js';
import { startWorker, type WorkerProcess } from '../dbos/support.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { post, readMessage, textOf, userMessage } from './support.js';

const missing = postgresMissing();
const shopSource = readFileSync(
  new URL('./fixtures/dbos-two-refunds.tsx', import.meta.url),
  'utf8',
);

/** The refund part of `order` in a message. */
function refundPart(message: JuneUIMessage, order: string): Record<string, any> {
  return message.parts.find(
    (part) => part.type === 'tool-refund' && (part as any).input?.order === order,
  ) as Record<string, any>;
}

/** The message with the refund of `order` answered, as addToolApprovalResponse does. */
function answerOrder(message: JuneUIMessage, order: string, approved: boolean): JuneUIMessage {
  const target = refundPart(message, order);
  return {
    ...message,
    parts: message.parts.map((part) =>
      part === (target as unknown)
        ? ({
            ...part,
            state: 'approval-responded',
            approval: { id: target.approval.id, approved },
          } as typeof part)
        : part,
    ),
  };
}

/** The message a response ends with, or a failure when it does not end within `ms`. */
async function ended(response: Promise<Response>, message?: JuneUIMessage, ms = 30_000) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the response did not end within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([response.then((r) => readMessage(r, message)), late]);
  } finally {
    clearTimeout(timer);
  }
}

describe.runIf(!missing)('chatHandler over DBOS: a call approved while its turn waits', () => {
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
    const database = pg.url('june_web_held');
    worker = await startWorker(project.dir, database, 'web-held-worker', {
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

  it('the page answers A1 only: the response ends waiting, A1 is held; B2 answered goes on', async () => {
    const user = userMessage('u1', 'Refund A1 and B2');
    const first = await ended(post(handler, { id: 'held', messages: [user] }));
    expect(first.metadata).toMatchObject({ waiting: true });
    const runId = first.metadata!.runId;

    const onlyA1 = answerOrder(first, 'A1', true);
    const second = await ended(post(handler, { id: 'held', messages: [user, onlyA1] }), onlyA1);
    expect(second.metadata).toEqual({ runId, waiting: true });
    expect(refundPart(second, 'A1')).toMatchObject({
      state: 'approval-responded',
      approval: { approved: true },
    });
    expect(refundPart(second, 'B2')).toMatchObject({ state: 'approval-requested' });
    expect(refunds()).toBe('');
    const summary = await runs.get(runId);
    expect(summary.held.map((request) => request.input)).toEqual([{ order: 'A1' }]);
    expect(summary.waiting.map((request) => request.input)).toEqual([{ order: 'B2' }]);

    // the page sends its whole message: A1's answer again (kept, not refused) and B2's
    const both = answerOrder(second, 'B2', true);
    const response = await post(handler, { id: 'held', messages: [user, both] });
    expect(response.status).toBe(200);
    const third = await ended(Promise.resolve(response), both);
    expect(third.metadata).toEqual({ runId, waiting: false });
    expect(textOf(third).at(-1)).toBe('Both orders are handled.');
    expect(refunds().split('\n').filter(Boolean).sort()).toEqual(['A1', 'B2']);
  }, 180_000);
});
