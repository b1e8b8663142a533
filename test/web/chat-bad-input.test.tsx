import { tool } from 'ai';
import { Agent, Tool, fileJournalStore, memoryJournalStore } from 'june';
import { scriptedModel } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput } from 'june/web';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answered, post, readMessage, toolPart, userMessage } from './support.js';

const model = scriptedModel({
  $comment: 'Test fixture: scripted turns for test/web',
  steps: {
    'turn-1': [{ toolCalls: [{ tool: 'refund', input: { order: 'A1' } }] }, { text: 'Refunded.' }],
  },
});
const refunds: string[] = [];
const refund = tool({
  inputSchema: z.object({ order: z.string() }),
  needsApproval: true,
  execute: async ({ order }) => (refunds.push(order), 'ok'),
});
function Shop({ chat }: { chat: ChatInput }) {
  return (
    <Agent model={model}>
      <Tool name="refund" value={refund} />
      <ChatTurns chat={chat} />
    </Agent>
  );
}

async function refused(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const { error } = (await response.json()) as { error: { code: string; message: string } };
  expect(error.code).toBe(code);
  expect(error.message).toMatch(/^june: /);
}

describe('chatHandler refuses bad requests with a 4xx and leaves the run unharmed', () => {
  it('malformed bodies, a run that does not exist, an unknown or already answered approval', async () => {
    const journal = memoryJournalStore();
    const handler = chatHandler({ workflow: Shop, journal });
    const user = userMessage('u1', 'Refund A1');
    const first = await readMessage(await post(handler, { id: 'c', messages: [user] }));
    const runId = first.metadata!.runId;
    const recorded = (await journal.read(runId)).length;

    await refused(await post(handler, '{not json'), 400, 'chat-request-invalid');
    await refused(await post(handler, { id: 'c', messages: 'hi' }), 400, 'chat-request-invalid');
    await refused(
      await post(handler, { id: 'c', messages: [{ role: 'user', parts: 3 }] }),
      400,
      'chat-request-invalid',
    );
    const elsewhere = {
      ...first,
      metadata: { runId: '20990101-000000-000000000000', waiting: true },
    };
    await refused(
      await post(handler, { id: 'c', messages: [user, answered(elsewhere, 'tool-refund', true)] }),
      404,
      'chat-run-missing',
    );
    // a run id the journal's file store would refuse is refused here too, before any read
    for (const badId of ['x'.repeat(129), '../escape']) {
      await expect(fileJournalStore({ dir: 'unused' }).read(badId)).rejects.toMatchObject({
        code: 'journal-run-id-invalid',
      });
      const bad = { ...first, metadata: { runId: badId, waiting: true } };
      await refused(
        await post(handler, { id: 'c', messages: [user, answered(bad, 'tool-refund', true)] }),
        400,
        'chat-request-invalid',
      );
    }
    // a chat id leaves room for the turn a durable chat's run ids add (`<chatId>-<turn>`)
    await refused(
      await post(handler, { id: 'c'.repeat(101), messages: [user] }),
      400,
      'chat-request-invalid',
    );
    const unknown = answered(first, 'tool-refund', true);
    (toolPart(unknown, 'tool-refund')!.approval as { id: string }).id = `${runId}/turn-1#9.9`;
    await refused(
      await post(handler, { id: 'c', messages: [user, unknown] }),
      409,
      'approval-unknown',
    );
    expect((await journal.read(runId)).length).toBe(recorded);
    expect(refunds).toEqual([]);

    // the run is unharmed: the real answer still goes through, once
    const approved = answered(first, 'tool-refund', true);
    await readMessage(await post(handler, { id: 'c', messages: [user, approved] }), approved);
    expect(refunds).toEqual(['A1']);
    await refused(
      await post(handler, { id: 'c', messages: [user, approved] }),
      409,
      'approval-answered',
    );
    expect(refunds).toEqual(['A1']);
  });
});
