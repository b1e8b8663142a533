/**
 * Wrappers: <Namespace> prefixes the names of the tools inside it, <RequireApproval> makes
 * the tools inside it wait for a person. Each governs only what it wraps.
 *
 *   npx june inspect examples/capabilities/wrappers.tsx
 *   npx june run examples/capabilities/wrappers.tsx --script examples/capabilities/wrappers.script.json
 */
import { tool } from 'ai';
import { Agent, Namespace, RequireApproval, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const searchTickets = tool({
  description: 'Search support tickets',
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }) => [{ id: 311, title: `Login fails after password reset (${query})` }],
});

const refund = tool({
  description: 'Refund a customer order',
  inputSchema: z.object({ order: z.string(), cents: z.number().int() }),
  // Says it needs no approval; the <RequireApproval> around it decides anyway.
  needsApproval: false,
  execute: async ({ order, cents }) => `Refunded ${cents} cents on ${order}`,
});

const searchKnowledgeBase = tool({
  description: 'Search the knowledge base',
  inputSchema: z.object({ query: z.string() }),
  execute: async () => 'Article 12: after a password reset, sign out of every device.',
});

export default function Support() {
  return (
    <Agent model={openai('gpt-5-mini')}>
      <Namespace name="tickets">
        <Tool name="search" value={searchTickets} />
        <RequireApproval>
          <Tool name="refund" value={refund} />
        </RequireApproval>
      </Namespace>
      <Namespace name="kb">
        <Tool name="search" value={searchKnowledgeBase} />
      </Namespace>
      <Step
        id="support"
        prompt="Find the login ticket, look for an answer, and refund order A-17 (500 cents) as a goodwill gesture."
      />
    </Agent>
  );
}
