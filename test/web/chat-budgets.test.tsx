// A <Budget> in a chat: once its calls spent the cap, the next model call waits, and the page
// gets the request as an approval (`tool-june-budget`) with what was spent beside it (a
// `data-june-budget` part); approved there, the turn goes on.
import { tool } from 'ai';
import { Agent, Budget, memoryJournalStore, Tool } from 'june';
import { scriptedModel } from 'june/testing';
import { chatHandler, ChatTurns, type ChatInput } from 'june/web';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answered, chunksOf, post, readMessage, toolPart, userMessage } from './support.js';

const lookup = tool({
  description: 'Look something up',
  inputSchema: z.object({ q: z.string() }),
  execute: async ({ q }) => `found ${q}`,
});

function budgeted() {
  const usage = { inputTokens: 80, outputTokens: 20 };
  const model = scriptedModel({
    $comment: 'Test fixture: scripted turns for test/web',
    steps: {
      'turn-1': [
        { toolCalls: [{ tool: 'lookup', input: { q: 'jsx' } }], usage },
        { text: 'JSX is calls.', usage },
      ],
    },
  });
  function Chat({ chat }: { chat: ChatInput }) {
    return (
      <Budget name="chat-budget" tokens={100}>
        <Agent model={model}>
          <Tool name="lookup" value={lookup} />
          <ChatTurns chat={chat} />
        </Agent>
      </Budget>
    );
  }
  return chatHandler({ workflow: Chat, journal: memoryJournalStore() });
}

describe('chatHandler: a budgeted chat', () => {
  it("shows the budget's request with what was spent, and goes on once approved", async () => {
    const handler = budgeted();
    const user = userMessage('u1', 'What is JSX?');
    const first = await readMessage(await post(handler, { id: 'b1', messages: [user] }));
    const part = toolPart(first, 'tool-june-budget')!;
    expect(part.state).toBe('approval-requested');
    expect(first.parts.find((each) => each.type === 'data-june-budget')).toMatchObject({
      id: part.toolCallId,
      data: {
        toolCallId: part.toolCallId,
        approvalId: part.approval.id,
        budget: { name: 'chat-budget', spent: { tokens: 100 }, cap: { tokens: 100 } },
      },
    });
    const approved = answered(first, 'tool-june-budget', true);
    const chunks = await chunksOf(await post(handler, { id: 'b1', messages: [user, approved] }));
    const text = chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : []));
    expect(text.join('')).toBe('JSX is calls.');
  });
});
