import { tool } from 'ai';
import { Agent, Tool, memoryJournalStore } from 'june';
import { scriptedModel, type ModelScript } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput } from 'june/web';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answered, post, readMessage, textOf, toolPart, userMessage } from './support.js';

/** A shop assistant whose refunds wait for approval; `refunds` counts the refunds made. */
function shop(steps: ModelScript['steps']) {
  const model = scriptedModel({ $comment: 'Test fixture: scripted turns for test/web', steps });
  const refunds: string[] = [];
  const refund = tool({
    inputSchema: z.object({ order: z.string() }),
    needsApproval: true,
    execute: async ({ order }) => (refunds.push(order), `refunded ${order}`),
  });
  function Shop({ chat }: { chat: ChatInput }) {
    return (
      <Agent model={model} messages={chat.history}>
        <Tool name="refund" value={refund} />
        <ChatTurns chat={chat} />
      </Agent>
    );
  }
  const journal = memoryJournalStore();
  return { model, refunds, journal, handler: chatHandler({ workflow: Shop, journal }) };
}

const refundTurn = [
  { text: 'Checking order A1.', toolCalls: [{ tool: 'refund', input: { order: 'A1' } }] },
  { text: 'Done: A1 is refunded.' },
];

const deniedPrompt = (model: ReturnType<typeof scriptedModel>, step: string) =>
  JSON.stringify(model.calls.filter((call) => call.step === step).at(-1)!.prompt);

describe('chatHandler: the stateless round trip', () => {
  it('waits at an approval; the answer reaches the waiting run, which goes on where it stood', async () => {
    const { handler, refunds, journal } = shop({ 'turn-1': refundTurn });
    const user = userMessage('u1', 'Refund A1');
    const first = await readMessage(await post(handler, { id: 'chat1', messages: [user] }));

    expect(first.metadata).toMatchObject({ waiting: true });
    const runId = first.metadata!.runId;
    expect(textOf(first)).toEqual(['Checking order A1.']);
    expect(toolPart(first, 'tool-refund')).toMatchObject({
      state: 'approval-requested',
      input: { order: 'A1' },
      approval: { id: `${runId}/turn-1#0.0` },
    });
    expect(refunds).toEqual([]);

    const approved = answered(first, 'tool-refund', true);
    const response = await post(handler, { id: 'chat1', messages: [user, approved] });
    const second = await readMessage(response, approved);
    expect(second.metadata).toEqual({ runId, waiting: false });
    expect(refunds).toEqual(['A1']);
    expect(toolPart(second, 'tool-refund')).toMatchObject({
      state: 'output-available',
      output: 'refunded A1',
    });
    // the replayed start of the run is held back: the page gets each text once
    expect(textOf(second)).toEqual(['Checking order A1.', 'Done: A1 is refunded.']);
    // the agent's part, shown running while the run waited, ends with the run
    const agents = second.parts.flatMap((part) =>
      part.type === 'data-june-agent' ? [part.data.status] : [],
    );
    expect(agents).toEqual(['succeeded']);
    // the run waited here: it was never stopped and taken up again
    expect((await journal.read(runId)).filter((r) => r.type === 'resume')).toHaveLength(0);
  });

  it('a denial with a reason reaches the model', async () => {
    const { handler, refunds, model } = shop({
      'turn-1': [refundTurn[0]!, { text: 'Understood, no refund.' }],
    });
    const user = userMessage('u1', 'Refund A1');
    const first = await readMessage(await post(handler, { id: 'c', messages: [user] }));
    const denied = answered(first, 'tool-refund', false, 'order A1 was a gift');
    const second = await readMessage(
      await post(handler, { id: 'c', messages: [user, denied] }),
      denied,
    );
    expect(refunds).toEqual([]);
    expect(toolPart(second, 'tool-refund')).toMatchObject({ state: 'output-denied' });
    expect(textOf(second).at(-1)).toBe('Understood, no refund.');
    expect(deniedPrompt(model, 'turn-1')).toContain('order A1 was a gift');
  });

  it('a new user message while a call waits denies that call; the message is the next run, once the model read the denial', async () => {
    const { handler, refunds, model } = shop({
      'turn-1': [
        refundTurn[0]!,
        { text: 'Left A1 alone.' },
        { text: 'Your order B2 ships tomorrow.' },
      ],
    });
    const u1 = userMessage('u1', 'Refund A1');
    const first = await readMessage(await post(handler, { id: 'c', messages: [u1] }));
    expect(first.metadata).toEqual({ runId: 'c-1', waiting: true });
    const u2 = userMessage('u2', 'Actually, when does B2 ship?');
    const next = await readMessage(await post(handler, { id: 'c', messages: [u1, first, u2] }));
    expect(refunds).toEqual([]);
    expect(next.metadata).toEqual({ runId: 'c-2', waiting: false });
    // the waiting call's part is in the earlier message, which this response does not touch
    expect(toolPart(next, 'tool-refund')).toBeUndefined();
    expect(textOf(next)).toEqual(['Your order B2 ships tomorrow.']);
    // the first run read the denial before the second run's model call
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain(
      'The user sent a new message instead of answering.',
    );
    const last = JSON.stringify(model.calls[2]!.prompt);
    expect(last).toContain('Refund A1'); // the conversation so far, as context
    expect(last).toContain('Actually, when does B2 ship?');
  });
});
