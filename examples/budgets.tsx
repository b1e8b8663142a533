/**
 * Budgets: a spending cap over a part of the workflow. `<Budget name="research">` counts the
 * tokens of every model call beneath it (the writer agent's own, and those of `researcher`, a
 * defined agent whose run is a child of the writer's) and, before each call, checks the cap:
 *
 * - once the calls have spent the cap, the next call waits: a person is asked whether to
 *   allow one more budget's worth (here 1,500 tokens), through the run's inbox, as any approval;
 * - allowed, the cap grows by that much and the call goes on; denied, the run fails with
 *   `budget-exceeded`. With `onExceed="fail"` it fails without asking.
 *
 *   npx june inspect examples/budgets.tsx                                              # each tool's budgets
 *   npx june run examples/budgets.tsx --script examples/budgets.script.json             # you answer the budget
 *   npx june run examples/budgets.tsx --script examples/budgets.script.json --approve all --approve-escalations
 */
import { tool } from 'ai';
import { Agent, Budget, defineAgent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const search = tool({
  description: 'Search the notes',
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }) => `3 notes about ${query}`,
});

/** Researches a topic in a run of its own: one tool to the writer. */
export const Researcher = defineAgent({
  name: 'researcher',
  description: 'Finds what the notes say about a topic',
  input: z.object({ topic: z.string() }),
  model: openai('gpt-5-mini'),
  prompt: ({ topic }) => `Find what the notes say about ${topic}.`,
  capabilities: () => <Tool name="search" value={search} />,
});

export default function BudgetedReport() {
  return (
    <Budget name="research" tokens={1500}>
      <Agent model={openai('gpt-5-mini')} name="writer">
        <Researcher />
        <Step id="report" prompt="Research JSX runtimes, then write a two-line report." />
      </Agent>
    </Budget>
  );
}
