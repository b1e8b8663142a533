// A model turn that asks for two approvals at once: the step goes on only once both are
// answered, so a call answered first is held, not running. A response that reached that
// point ends as waiting (it never hangs), the first answer is kept, and the turn goes on
// when the second comes; meanwhile the run is free for the page's next request.
import { tool } from 'ai';
import { memoryJournalStore, Agent, Tool, type ApprovalPolicy } from 'june';
import { scriptedModel } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput, type JuneUIMessage } from 'june/web';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { post, readMessage, textOf, userMessage } from './support.js';

/** A shop whose model refunds A1 and B2 in one turn; each refund waits for approval. */
function twoRefunds(onApproval?: ApprovalPolicy) {
  const model = scriptedModel({
    $comment: 'Test fixture: two approvals in one turn, for test/web/chat-held-approval',
    steps: {
      'turn-1': [
        {
          text: 'Refunding both.',
          toolCalls: [
            { tool: 'refund', input: { order: 'A1' } },
            { tool: 'refund', input: { order: 'B2' } },
          ],
        },
        { text: 'Both orders are handled.' },
      ],
    },
  });
  const refunds: string[] = [];
  const refund = tool({
    inputSchema: z.object({ order: z.string() }),
    needsApproval: true,
    execute: async ({ order }) => (refunds.push(order), `refunded ${order}`),
  });
  function Shop({ chat }: { chat: ChatInput }) {
    return (
      <Agent model={model}>
        <Tool name="refund" value={refund} />
        <ChatTurns chat={chat} />
      </Agent>
    );
  }
  const journal = memoryJournalStore();
  const handler = chatHandler({
    workflow: Shop,
    journal,
    ...(onApproval ? { runOptions: { onApproval } } : {}),
  });
  return { refunds, journal, handler };
}

/** The refund part of `order` in a message. */
function refundPart(message: JuneUIMessage, order: string): Record<string, any> {
  return message.parts.find(
    (part) => part.type === 'tool-refund' && (part as any).input?.order === order,
  ) as Record<string, any>;
}

/** The message with the approval of the refund of `order` answered, as addToolApprovalResponse does. */
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

/**
 * The message a response ends with (continuing `message`), or a failure when the response
 * does not end within `ms`: a response that hangs is the fault this file is about.
 */
async function ended(response: Promise<Response>, message?: JuneUIMessage, ms = 10_000) {
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

describe('chatHandler: a call approved while another request of its turn waits', () => {
  it('a policy approves A1: the response ends waiting, A1 is kept, B2 answered goes on', async () => {
    const { handler, refunds, journal } = twoRefunds((request) =>
      (request.input as { order: string }).order === 'A1' ? true : undefined,
    );
    const user = userMessage('u1', 'Refund A1 and B2');
    const first = await ended(post(handler, { id: 'held1', messages: [user] }));
    expect(first.metadata).toMatchObject({ waiting: true });
    const runId = first.metadata!.runId;
    // A1's answer is shown as given; B2 still asks
    expect(refundPart(first, 'A1')).toMatchObject({
      state: 'approval-responded',
      approval: { approved: true },
    });
    expect(refundPart(first, 'B2')).toMatchObject({ state: 'approval-requested' });
    expect(refunds).toEqual([]);
    // the journal kept A1's answer
    const records = await journal.read(runId);
    expect(records.filter((r) => r.type === 'approval-answer')).toHaveLength(1);

    const both = answerOrder(first, 'B2', true);
    const second = await readMessage(
      await post(handler, { id: 'held1', messages: [user, both] }),
      both,
    );
    expect(second.metadata).toEqual({ runId, waiting: false });
    expect(refunds.sort()).toEqual(['A1', 'B2']);
    expect(refundPart(second, 'A1')).toMatchObject({ state: 'output-available' });
    expect(refundPart(second, 'B2')).toMatchObject({ state: 'output-available' });
    expect(textOf(second).at(-1)).toBe('Both orders are handled.');
  });

  it('the page answers A1 only: the response ends waiting, the run is free, B2 answered goes on', async () => {
    const { handler, refunds } = twoRefunds();
    const user = userMessage('u1', 'Refund A1 and B2');
    const first = await ended(post(handler, { id: 'held2', messages: [user] }));
    expect(first.metadata).toMatchObject({ waiting: true });
    const runId = first.metadata!.runId;

    const onlyA1 = answerOrder(first, 'A1', true);
    const second = await ended(post(handler, { id: 'held2', messages: [user, onlyA1] }), onlyA1);
    expect(second.metadata).toEqual({ runId, waiting: true });
    expect(refunds).toEqual([]);

    const both = answerOrder(onlyA1, 'B2', true);
    const response = await post(handler, { id: 'held2', messages: [user, both] });
    expect(response.status).toBe(200);
    const third = await readMessage(response, both);
    expect(third.metadata).toEqual({ runId, waiting: false });
    expect(refunds.sort()).toEqual(['A1', 'B2']);
    expect(textOf(third).at(-1)).toBe('Both orders are handled.');
  });
});
