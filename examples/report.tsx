/**
 * A composite tool: the writer's model sees one tool, `research`, and each call runs a small
 * workflow of its own (an agent with a `search` tool) whose answer comes back as the tool's
 * result. The writer never sees `search`.
 *
 * `search` looks through a few notes kept in this file, so the example needs no network
 * besides the model.
 *
 *   npx june run examples/report.tsx
 *   npx june run examples/report.tsx --script examples/report.script.json --approve all   # offline
 */
import { tool } from 'ai';
import { z } from 'zod';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';

/** What `search` knows: a few notes on React Suspense. */
const notes = [
  'Suspense lets a component wait for something before rendering; React shows the nearest <Suspense> fallback meanwhile.',
  'With lazy(), Suspense shows the fallback while the component code loads.',
  'Suspense-enabled data sources (Relay, Next.js, use()) suspend while data loads; a plain fetch in an effect does not.',
  'Nested <Suspense> boundaries reveal content in order, each with its own fallback.',
];

const searchWeb = tool({
  description: 'Search the web',
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }) => {
    // The two notes that share the most words with the query.
    const words = query
      .toLowerCase()
      .split(/\W+/)
      .filter((word) => word.length > 3);
    const score = (note: string) =>
      words.filter((word) => note.toLowerCase().includes(word)).length;
    const hits = notes
      .filter((note) => score(note) > 0)
      .sort((a, b) => score(b) - score(a))
      .slice(0, 2);
    return hits.length ? hits.join('\n') : `no results for ${query}`;
  },
});

export default function Report() {
  return (
    <Agent model={openai('gpt-5-mini')}>
      <Tool
        name="research"
        description="Research a question and report what was found"
        input={z.object({ question: z.string() })}
      >
        {({ question }) => (
          <Agent model={openai('gpt-5-mini')}>
            <Tool name="search" value={searchWeb} />
            <Step id="findings" prompt={`Research: ${question}`} />
          </Agent>
        )}
      </Tool>
      <Step id="report" prompt="Research how Suspense works, then write a summary" />
    </Agent>
  );
}
