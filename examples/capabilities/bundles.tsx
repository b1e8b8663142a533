/**
 * Bundles: defineCapabilities groups tools so an agent adds them in one line. The bundle
 * takes props (here: whether files may be written) and can contain other bundles.
 *
 *   npx june inspect examples/capabilities/bundles.tsx
 *   npx june run examples/capabilities/bundles.tsx --script examples/capabilities/bundles.script.json
 */
import { tool } from 'ai';
import { Agent, defineCapabilities, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

/** An in-memory workspace, so the example runs anywhere. */
const files = new Map<string, string>([
  ['src/sum.ts', 'export const sum = (a: number, b: number) => a - b;\n'],
]);

const readFile = tool({
  description: 'Read a file of the workspace',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => files.get(path) ?? `No file ${path}`,
});

const writeFile = tool({
  description: 'Write a file of the workspace',
  inputSchema: z.object({ path: z.string(), text: z.string() }),
  execute: async ({ path, text }) => {
    files.set(path, text);
    return 'ok';
  },
});

const listFiles = tool({
  description: 'List the files of the workspace',
  inputSchema: z.object({}),
  execute: async () => [...files.keys()],
});

/** Reading is always there; writing only when the workflow says so. */
export const Files = defineCapabilities(
  ({ writable = false }: { writable?: boolean }) => (
    <>
      <Tool name="listFiles" value={listFiles} />
      <Tool name="readFile" value={readFile} />
      {writable && <Tool name="writeFile" value={writeFile} />}
    </>
  ),
  { name: 'Files' },
);

/** A bundle made of another bundle: what a coding agent needs. */
export const Workspace = defineCapabilities(
  ({ writable }: { writable: boolean }) => <Files writable={writable} />,
  { name: 'Workspace' },
);

export default function FixBug({ writable = true }: { writable?: boolean }) {
  return (
    <Agent model={openai('gpt-5-mini')}>
      <Workspace writable={writable} />
      <Step id="fix" prompt="sum() returns the wrong result. Find the bug and fix it." />
    </Agent>
  );
}
