/**
 * A long conversation kept short: a support agent answers tickets one after another in one
 * conversation, and `compact` replaces its older turns with a summary whenever the
 * conversation would pass 8 messages, so every model call carries at most 8. The last step
 * asks about tickets answered long before; the summary is what still knows them.
 *
 *   npx june run examples/compaction.tsx --script examples/compaction.script.json   # offline
 *   OPENAI_API_KEY=sk-... npx june run examples/compaction.tsx                       # a real model
 *
 * Studio marks the agent "compacted ×N"; its inspector lists each summary and what it replaced.
 */
import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const orders: Record<string, string> = {
  'A-1001': 'shipped on 2 December, arriving 5 December',
  'A-1002': 'waiting for stock, ships on 12 December',
};

const orderStatus = tool({
  description: 'The status of an order, by its number (e.g. A-1001)',
  inputSchema: z.object({ order: z.string() }),
  execute: async ({ order }) => orders[order] ?? `no order ${order}`,
});

const tickets = [
  'Ticket 1 (Ana): where is my order A-1001?',
  'Ticket 2 (Ben): how do I reset my password?',
  'Ticket 3 (Chloé): my order A-1002 has not shipped yet, why?',
  'Ticket 4 (Dev): can I change the delivery address of an order that has shipped?',
  'Ticket 5 (Eli): do you ship to Norway?',
];

export default function Support() {
  return (
    <Agent
      name="support"
      model={openai('gpt-5-mini')}
      instructions="You answer support tickets in one or two sentences. Look orders up before you answer about them."
      compact={{ maxMessages: 8 }}
    >
      <Tool name="orderStatus" value={orderStatus} />
      {tickets.map((ticket, i) => (
        <Step id={`ticket${i + 1}`} prompt={ticket} />
      ))}
      <Step id="followUp" prompt="Which customers are still waiting for something, and for what?" />
    </Agent>
  );
}
