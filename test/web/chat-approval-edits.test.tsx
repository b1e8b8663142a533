// A page answers an approval with an edited input, or instead of the tool, through the body
// field approvalWith() makes beside addToolApprovalResponse's answer: the handler applies
// it, and the streamed message shows the edited input, or the answer as the call's output.
import { tool } from 'ai';
import { Agent, memoryJournalStore, Tool } from 'june';
import { scriptedModel } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput } from 'june/web';
import { approvalWith } from 'june/web/approval-with';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answered, post, readMessage, toolPart, userMessage } from './support.js';

/** A shop whose refunds wait for approval; `refunds` lists the orders the tool refunded. */
function shop() {
  const refunds: string[] = [];
  const model = scriptedModel({
    $comment: 'Test fixture: scripted turns for test/web',
    steps: {
      'turn-1': [
        { text: 'Refunding A1.', toolCalls: [{ tool: 'refund', input: { order: 'A1' } }] },
        { text: 'Done.' },
      ],
    },
  });
  const refund = tool({
    inputSchema: z.object({ order: z.string().regex(/^[A-Z]\d+$/) }),
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
  return { handler: chatHandler({ workflow: Shop, journal: memoryJournalStore() }), refunds };
}

describe('chatHandler: edits and answers instead of the tool from the page', () => {
  it('an edited input: the tool runs once with it, and the part shows it', async () => {
    const { handler, refunds } = shop();
    const user = userMessage('u1', 'Refund A1');
    const first = await readMessage(await post(handler, { id: 'c1', messages: [user] }));
    const id = toolPart(first, 'tool-refund')!.approval.id as string;
    const approved = answered(first, 'tool-refund', true);
    const response = await post(handler, {
      id: 'c1',
      messages: [user, approved],
      ...approvalWith(id, { input: { order: 'B2' } }),
    });
    expect(response.status).toBe(200);
    const message = await readMessage(response, approved);

    expect(refunds).toEqual(['B2']);
    expect(toolPart(message, 'tool-refund')).toMatchObject({
      state: 'output-available',
      input: { order: 'B2' },
      output: 'refunded B2',
    });
  });

  it('an answer instead of the tool: it never runs, and the part shows the answer as output', async () => {
    const { handler, refunds } = shop();
    const user = userMessage('u1', 'Refund A1');
    const first = await readMessage(await post(handler, { id: 'c2', messages: [user] }));
    const id = toolPart(first, 'tool-refund')!.approval.id as string;
    const denied = answered(first, 'tool-refund', false);
    const message = await readMessage(
      await post(handler, {
        id: 'c2',
        messages: [user, denied],
        ...approvalWith(id, { output: 'refunded by hand' }),
      }),
      denied,
    );

    expect(refunds).toEqual([]);
    expect(toolPart(message, 'tool-refund')).toMatchObject({
      state: 'output-available',
      output: 'refunded by hand',
    });
  });

  it('an edit that contradicts its answer, or answers nothing, is refused with 400', async () => {
    const { handler, refunds } = shop();
    const user = userMessage('u1', 'Refund A1');
    const first = await readMessage(await post(handler, { id: 'c3', messages: [user] }));
    const id = toolPart(first, 'tool-refund')!.approval.id as string;
    const contradicts = await post(handler, {
      id: 'c3',
      messages: [user, answered(first, 'tool-refund', false)],
      ...approvalWith(id, { input: { order: 'B2' } }),
    });
    expect(contradicts.status).toBe(400);
    expect(await contradicts.text()).toContain('june: the chat request is malformed');
    const nothing = await post(handler, {
      id: 'c3',
      messages: [user, answered(first, 'tool-refund', true)],
      ...approvalWith('c3/elsewhere#0.0', { output: 'x' }),
    });
    expect(nothing.status).toBe(400);
    expect(refunds).toEqual([]);
  });

  it('an edit the schema refuses is not applied: the call still waits, and a good edit runs it', async () => {
    const { handler, refunds } = shop();
    const user = userMessage('u1', 'Refund A1');
    const first = await readMessage(await post(handler, { id: 'c4', messages: [user] }));
    const id = toolPart(first, 'tool-refund')!.approval.id as string;
    const approved = answered(first, 'tool-refund', true);
    const refused = await post(handler, {
      id: 'c4',
      messages: [user, approved],
      ...approvalWith(id, { input: { order: 'not an order' } }),
    });
    expect(refunds).toEqual([]);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      error: {
        code: 'approval-input-invalid',
        message: expect.stringContaining('june: the edited input for the "refund" call'),
      },
    });

    const again = await post(handler, {
      id: 'c4',
      messages: [user, approved],
      ...approvalWith(id, { input: { order: 'C3' } }),
    });
    expect(again.status).toBe(200);
    await readMessage(again, approved);
    expect(refunds).toEqual(['C3']);
  });
});
