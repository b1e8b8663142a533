// Each user message of a chat is a run of its own, `<chatId>-<n>`: a page that sends its first
// message again without the run's id (it lost the response) reaches that message's run. While
// the run waits for approval, the request is refused as busy and nothing is denied or run (a
// reconnect sends the waiting request); a message after it is a run of its own, the earlier
// messages its context.
import { tool } from 'ai';
import { Agent, memoryJournalStore, Tool } from 'june';
import { scriptedModel } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput } from 'june/web';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answered, post, readMessage, textOf, toolPart, userMessage } from './support.js';

function shop() {
  const model = scriptedModel({
    $comment: 'Test fixture: test/web/chat-first-message-again.test.tsx',
    steps: {
      'turn-1': [
        { text: 'Checking A1.', toolCalls: [{ tool: 'refund', input: { order: 'A1' } }] },
        { text: 'A1 is refunded.' },
        { text: 'You are welcome.' },
      ],
    },
  });
  const refunds: string[] = [];
  const refund = tool({
    inputSchema: z.object({ order: z.string() }),
    needsApproval: true,
    execute: async ({ order }) => (refunds.push(order), `refunded ${order}`),
  });
  const Shop = ({ chat }: { chat: ChatInput }) => (
    <Agent model={model} messages={chat.history}>
      <Tool name="refund" value={refund} />
      <ChatTurns chat={chat} />
    </Agent>
  );
  const journal = memoryJournalStore();
  return { model, refunds, journal, handler: chatHandler({ workflow: Shop, journal }) };
}

describe('a chat’s first message sent again without its run id', () => {
  it('while its run waits for approval: 409 chat-run-busy, nothing is denied or run; a reconnect gets the request', async () => {
    const { model, refunds, journal, handler } = shop();
    const user = userMessage('u1', 'Refund A1');
    const first = await readMessage(await post(handler, { id: 'c1', messages: [user] }));
    expect(first.metadata).toEqual({ runId: 'c1-1', waiting: true });

    const busy = await post(handler, { id: 'c1', messages: [user] });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toMatchObject({ error: { code: 'chat-run-busy' } });
    const again = await readMessage(
      await handler(new Request('http://localhost/api/chat/c1/stream')),
    );
    expect(again.metadata).toEqual({ runId: 'c1-1', waiting: true });
    expect(textOf(again)).toEqual(['Checking A1.']);
    expect(toolPart(again, 'tool-refund')).toMatchObject({
      state: 'approval-requested',
      approval: { id: 'c1-1/turn-1#0.0' },
    });
    expect(model.calls).toHaveLength(1);
    expect((await journal.read('c1-1')).some((record) => record.type === 'approval-answer')).toBe(
      false,
    );

    const approved = answered(again, 'tool-refund', true);
    const done = await readMessage(
      await post(handler, { id: 'c1', messages: [user, approved] }),
      approved,
    );
    expect(textOf(done)).toEqual(['Checking A1.', 'A1 is refunded.']);
    expect(refunds).toEqual(['A1']);
  });

  it('with a new message after it: a run of its own, the first message its context, one model call', async () => {
    const { model, handler } = shop();
    const user = userMessage('u1', 'Refund A1');
    const first = await readMessage(await post(handler, { id: 'c2', messages: [user] }));
    const approved = answered(first, 'tool-refund', true);
    await readMessage(await post(handler, { id: 'c2', messages: [user, approved] }), approved);
    expect(model.calls).toHaveLength(2);

    // the page never got the answer: its first message, then the next one, and no run id
    const thanks = userMessage('u2', 'Thanks!');
    const next = await readMessage(await post(handler, { id: 'c2', messages: [user, thanks] }));
    expect(next.metadata).toEqual({ runId: 'c2-2', waiting: false });
    expect(textOf(next)).toEqual(['You are welcome.']);
    expect(model.calls).toHaveLength(3);
    expect(JSON.stringify(model.calls.at(-1)!.prompt)).toContain('Refund A1');
  });
});
