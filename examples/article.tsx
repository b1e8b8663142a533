/**
 * A callable agent: `defineAgent` makes a researcher with its own model, instructions and
 * `search` tool. The writer declares it with `<Researcher />` and sees it as one tool,
 * `researcher`; each call runs the researcher's one step (`researcher:answer`) with a prompt
 * built from the call's input alone.
 *
 * `search` looks through a few notes kept in this file, so the example needs no network
 * besides the model.
 *
 *   npx june run examples/article.tsx
 *   npx june run examples/article.tsx --script examples/article.script.json --approve all   # offline
 */
import { tool } from 'ai';
import { z } from 'zod';
import { Agent, Step, Tool, defineAgent } from 'june';
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

export const Researcher = defineAgent({
  name: 'researcher',
  description: 'Researches a question and reports what it found',
  input: z.object({ question: z.string() }),
  model: openai('gpt-5-mini'),
  instructions: 'You research carefully and cite what you find.',
  prompt: ({ question }) => `Research: ${question}`,
  capabilities: () => <Tool name="search" value={searchWeb} />,
});

export default function Article() {
  return (
    <Agent model={openai('gpt-5')}>
      <Researcher />
      <Step id="write" prompt="Write a short article on how Suspense works" />
    </Agent>
  );
}
