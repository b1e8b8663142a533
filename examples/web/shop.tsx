import { tool, type LanguageModel } from 'ai';
import { Agent, Question, Tool } from 'june';
import { ChatTurns, type ChatInput } from 'june/web';
import { z } from 'zod';

/**
 * The example's workflow: a shop assistant whose refunds wait for a person's approval, and
 * who may ask the customer why an order goes back (a question with a choice), one chat turn
 * per user message. `refunds` lists each refund made.
 */
export function shopWorkflow(model: LanguageModel, refunds: string[]) {
  const refund = tool({
    description: 'Refund an order',
    inputSchema: z.object({ order: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: async ({ order, amount }) => {
      refunds.push(order);
      return { order, refunded: amount };
    },
  });
  return function Shop({ chat }: { chat: ChatInput }) {
    return (
      <Agent
        model={model}
        instructions="You help customers of a small shop with their orders."
        messages={chat.history}
      >
        <Tool name="refund" value={refund} />
        <Question
          name="ask_reason"
          prompt="Why is the order going back?"
          answer={z.enum(['damaged', 'late', 'other'])}
        />
        <ChatTurns chat={chat} />
      </Agent>
    );
  };
}
