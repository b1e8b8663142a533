/**
 * The tools prop: an AI SDK ToolSet you already hold goes into the same scope as <Tool>.
 * Names still appear once, and nothing of it reaches a nested agent unless named.
 *
 *   npx june inspect examples/capabilities/tools-prop.tsx
 *   npx june run examples/capabilities/tools-prop.tsx --script examples/capabilities/tools-prop.script.json
 */
import { tool, type ToolSet } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

/** A ToolSet built elsewhere, e.g. shared with code that calls generateText() directly. */
const weatherTools: ToolSet = {
  forecast: tool({
    description: 'The forecast for a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => `${city}: 18°C, light rain`,
  }),
};

const packingList = tool({
  description: 'Save the packing list',
  inputSchema: z.object({ items: z.array(z.string()) }),
  execute: async ({ items }) => `Saved ${items.length} items`,
});

export default function Trip() {
  return (
    <Agent model={openai('gpt-5-mini')} tools={weatherTools}>
      <Tool name="savePackingList" value={packingList} />
      <Step
        id="pack"
        prompt="I am going to Lisbon tomorrow. Check the weather and save a packing list."
      />
    </Agent>
  );
}
