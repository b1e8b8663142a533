/**
 * A review fanned out: one agent reviews four files at the same time, two at once, each
 * review a branch of <Parallel> with its own conversation. After the join, the agent's
 * conversation holds the four reviews in the order they are written here, so the summary
 * step reads them all.
 *
 *   npx june run examples/parallel.tsx --script examples/parallel.script.json   # offline
 *   OPENAI_API_KEY=sk-... npx june run examples/parallel.tsx                     # a real model
 *
 * In Studio the run shows a "parallel" node with one branch per file; a branch that is
 * still running, or waiting for an approval, shows so on its own.
 */
import { tool } from 'ai';
import { Agent, Parallel, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const files: Record<string, string> = {
  'cart.ts': 'export const total = (prices: number[]) => prices.reduce((a, b) => a + b);',
  'price.ts': 'export const withTax = (price: number) => price * 1.2;',
  'user.ts': 'export const greet = (name?: string) => `Hello, ${name.trim()}!`;',
  'stock.ts': 'export const inStock = (count: number) => count >= 0;',
};

const readFile = tool({
  description: 'Read a source file of the project',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => files[path] ?? `no file ${path}`,
});

export default function Review() {
  return (
    <Agent
      name="reviewer"
      model={openai('gpt-5-mini')}
      instructions="You review TypeScript code. Read the file, then name its one worst bug in a sentence, or say it looks fine."
    >
      <Tool name="readFile" value={readFile} />
      <Parallel limit={2}>
        {Object.keys(files).map((path) => (
          <Step key={path} id={`review-${path.replace('.ts', '')}`} prompt={`Review ${path}`} />
        ))}
      </Parallel>
      <Step id="summary" prompt="List the files that need a fix, most urgent first." />
    </Agent>
  );
}
