/**
 * Scope: each agent has what its own children declare. The nested agent starts with nothing
 * of its parent's; it names the one tool it takes with <Inherit>.
 *
 *   npx june inspect examples/capabilities/scope.tsx
 *   npx june run examples/capabilities/scope.tsx --script examples/capabilities/scope.script.json
 */
import { tool } from 'ai';
import { Agent, Inherit, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const notes: Record<string, string> = {
  'pricing.md':
    'Plans: Free (1 project), Team ($12 per seat per month), Enterprise (contact sales).',
};

const readNote = tool({
  description: 'Read one of the team notes by file name, e.g. pricing.md',
  inputSchema: z.object({ file: z.string() }),
  execute: async ({ file }) => notes[file] ?? `No note named ${file}`,
});

const publish = tool({
  description: 'Publish a page to the website',
  inputSchema: z.object({ title: z.string(), body: z.string() }),
  needsApproval: true,
  execute: async ({ title }) => `Published "${title}"`,
});

export default function PricingPage() {
  return (
    <Agent model={openai('gpt-5-mini')} name="editor">
      <Tool name="readNote" value={readNote} />
      <Tool name="publish" value={publish} />

      {/* The writer can read notes, and cannot publish: it never names publish. */}
      <Agent model={openai('gpt-5-nano')} name="writer">
        <Inherit capabilities={['readNote']} />
        <Step id="draft" prompt="Read pricing.md and draft a short pricing page." />
      </Agent>

      <Step
        id="review"
        prompt={({ steps }) =>
          `Review this draft and publish it if it is accurate:\n\n${String(steps.draft)}`
        }
      />
    </Agent>
  );
}
