// A chat kept as a thread (chatHandler({ thread })): each request carries only the page's last
// message; the runs are the thread's, in order; an approval is answered on the run that waits,
// and a new message while a call waits denies it first, its denial part of the conversation.
import { tool } from 'ai';
import { Agent, listThread, memoryJournalStore, Tool } from 'june';
import { scriptedModel } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput, type ChatThreadOption } from 'june/web';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answered, post, readMessage, textOf, userMessage } from './support.js';

function shop(thread: ChatThreadOption) {
  const model = scriptedModel({
    $comment: 'Test fixture: test/web/chat-thread.test.tsx',
    steps: {
      'turn-1': [
        { text: 'Checking order A1.', toolCalls: [{ tool: 'refund', input: { order: 'A1' } }] },
        { text: 'Done: A1 is refunded.' },
        { text: 'Checking order B2.', toolCalls: [{ tool: 'refund', input: { order: 'B2' } }] },
        { text: 'Understood, no refund for B2.' },
        { text: 'You had A1 refunded; B2 was not.' },
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
  return { model, refunds, journal, handler: chatHandler({ workflow: Shop, journal, thread }) };
}

describe('chatHandler with a thread', () => {
  it('one message a request: approvals, a superseded call and the conversation all go on in the thread', async () => {
    const { handler, model, refunds, journal } = shop(true);
    const first = await readMessage(
      await post(handler, { id: 'c1', messages: [userMessage('u1', 'Refund A1')] }),
    );
    expect(first.metadata).toMatchObject({ runId: 'c1-1', waiting: true });
    const approved = answered(first, 'tool-refund', true);
    const done = await readMessage(
      await post(handler, { id: 'c1', messages: [approved] }),
      approved,
    );
    expect(textOf(done)).toEqual(['Checking order A1.', 'Done: A1 is refunded.']);
    expect(refunds).toEqual(['A1']);

    const second = await readMessage(
      await post(handler, { id: 'c1', messages: [userMessage('u2', 'Refund B2')] }),
    );
    expect(second.metadata).toMatchObject({ runId: 'c1-2', waiting: true });
    // a new message instead of an answer: the waiting refund is denied, then the next run starts
    const third = await readMessage(
      await post(handler, { id: 'c1', messages: [userMessage('u3', 'What did I get?')] }),
    );
    expect(third.metadata).toMatchObject({ runId: 'c1-3', waiting: false });
    expect(textOf(third)).toEqual(['You had A1 refunded; B2 was not.']);
    expect(refunds).toEqual(['A1']);

    const prompt = JSON.stringify(model.calls.at(-1)!.prompt);
    for (const said of ['Refund A1', 'Done: A1 is refunded.', 'Refund B2', 'What did I get?'])
      expect(prompt).toContain(said);
    expect(prompt).toContain('The user sent a new message instead of answering.');
    expect((await listThread(journal, 'c1')).map((run) => run.runId)).toEqual([
      'c1-1',
      'c1-2',
      'c1-3',
    ]);
    model.assertAllTurnsUsed();
  });

  it("a function picks a chat's thread: two chats of one user share one conversation", async () => {
    const { handler, model, journal } = shop(() => 'user-ana');
    await readMessage(
      await post(handler, { id: 'tab1', messages: [userMessage('u1', 'Refund A1')] }),
    )
      .then((first) => answered(first, 'tool-refund', true))
      .then(async (approved) =>
        readMessage(await post(handler, { id: 'tab1', messages: [approved] }), approved),
      );
    await readMessage(
      await post(handler, { id: 'tab2', messages: [userMessage('u2', 'Refund B2')] }),
    );
    expect(JSON.stringify(model.calls.at(-1)!.prompt)).toContain('Done: A1 is refunded.');
    expect((await listThread(journal, 'user-ana')).map((run) => run.runId)).toEqual([
      'tab1-1',
      'tab2-2',
    ]);
  });

  it('two messages of one thread at once: their run ids differ, and the second is refused while the first holds the thread', async () => {
    const { handler, journal } = shop(true);
    const [one, two] = await Promise.all([
      post(handler, { id: 'c1', messages: [userMessage('u1', 'Refund A1')] }),
      post(handler, { id: 'c1', messages: [userMessage('u2', 'Refund B2')] }),
    ]);
    expect(one.status).toBe(200);
    expect((await readMessage(one)).metadata).toMatchObject({ runId: 'c1-1', waiting: true });
    expect(two.status).toBe(409);
    const refused = (await two.json()) as { error: { code: string; message: string } };
    expect(refused.error.code).toBe('chat-run-busy');
    expect(refused.error.message).toMatch(/^june: thread c1 is busy: run c1-1 /);
    // the refused message left no run: the thread has the first one only
    expect((await listThread(journal, 'c1')).map((run) => run.runId)).toEqual(['c1-1']);
  });

  it("GET <chatId>/messages gives the thread's conversation, for a page that kept nothing", async () => {
    const { handler } = shop(true);
    const first = await readMessage(
      await post(handler, { id: 'c1', messages: [userMessage('u1', 'Refund A1')] }),
    );
    const approved = answered(first, 'tool-refund', true);
    await readMessage(await post(handler, { id: 'c1', messages: [approved] }), approved);
    const response = await handler(new Request('http://127.0.0.1/api/chat/c1/messages'));
    expect(response.status).toBe(200);
    const { messages } = (await response.json()) as {
      messages: Array<{ role: string; parts: Array<{ text: string }> }>;
    };
    expect(messages.map((message) => [message.role, message.parts[0]!.text])).toEqual([
      ['user', 'Refund A1'],
      ['assistant', 'Checking order A1.'],
      ['assistant', 'Done: A1 is refunded.'],
    ]);
  });
});
