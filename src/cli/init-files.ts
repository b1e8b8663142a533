/**
 * The files `june init` writes: the JSX settings June requires (tsconfig.json for `tsc`,
 * `tsx` and editors; vitest.config.ts for tests), a first workflow with its model script,
 * and a test with an inline snapshot of the workflow's `inspect()` report (so it passes
 * under CI, where vitest writes no new snapshots) and an offline run from the script.
 *
 * These are the settings docs/getting-started.md states as required; keep the two in step.
 */
export interface InitFile {
  /** The path, relative to the project folder. */
  path: string;
  /** What the file is for, in one line (printed by `june init`). */
  purpose: string;
  text: string;
}

/**
 * The tsconfig June's JSX needs. `jsxImportSource` is the package name `june` (TypeScript and
 * tsx append `/jsx-runtime` themselves). `types: ["node"]` keeps Node's types visible under
 * TypeScript 7, which no longer includes every `@types` package by default.
 */
export const initTsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    jsx: 'react-jsx',
    jsxImportSource: 'june',
    types: ['node'],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  },
  include: ['**/*.ts', '**/*.tsx'],
} as const;

const vitestConfig = `import { defineConfig } from 'vitest/config';

// Vitest compiles .tsx with oxc: point its automatic JSX runtime at June (not React).
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'june' } },
});
`;

const workflow = `import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const weather = tool({
  description: 'The weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, celsius: 4, sky: 'cloudy' }),
});

/**
 * A first workflow: one agent, one tool, one step.
 *
 *   npx june run hello.tsx --script hello.script.json   # offline, answered from the script
 *   OPENAI_API_KEY=sk-... npx june run hello.tsx         # a real model
 */
export default function Hello({ city = 'Oslo' }: { city?: string }) {
  return (
    <Agent model={openai('gpt-5-mini')} instructions="Answer in one sentence.">
      <Tool name="weather" value={weather} />
      <Step id="advice" prompt={\`Should I take a coat in \${city} today?\`} />
    </Agent>
  );
}
`;

const script = `${JSON.stringify(
  {
    $comment:
      'Test fixture: scripted model turns for hello.tsx, to run it offline (npx june run hello.tsx --script hello.script.json)',
    steps: {
      advice: [
        { toolCalls: [{ tool: 'weather', input: { city: 'Oslo' } }] },
        { text: 'Yes: it is 4 °C and cloudy in Oslo, so take a coat.' },
      ],
    },
  },
  null,
  2,
)}\n`;

const test = `import { fileURLToPath } from 'node:url';
import { inspect, run } from 'june';
import { scriptedModel } from 'june/testing';
import { expect, test } from 'vitest';
import Hello from './hello.js';

test('the agent has exactly the tools the workflow gives it', async () => {
  // What inspect() reports, with no model called. When the workflow's tools change this
  // fails: check the change, then update the snapshot with npx vitest -u.
  expect(await inspect(<Hello />)).toMatchInlineSnapshot(\`
    {
      "agents": [
        {
          "name": "agent",
          "path": "agent",
          "tools": [
            {
              "name": "weather",
              "needsApproval": false,
              "source": "<Tool name="weather">",
            },
          ],
        },
      ],
    }
  \`);
});

test('the workflow runs offline from its script', async () => {
  const model = scriptedModel(fileURLToPath(new URL('./hello.script.json', import.meta.url)));
  const { output } = await run(<Hello />, { model }).result;
  expect(output).toContain('take a coat');
  model.assertAllTurnsUsed();
});
`;

/** The files of a new June project, in the order `june init` lists them. */
export const initFiles: readonly InitFile[] = [
  {
    path: 'tsconfig.json',
    purpose: "June's JSX settings for tsc, tsx and your editor",
    text: `${JSON.stringify(initTsconfig, null, 2)}\n`,
  },
  { path: 'vitest.config.ts', purpose: "June's JSX settings for vitest", text: vitestConfig },
  { path: 'hello.tsx', purpose: 'a first workflow', text: workflow },
  { path: 'hello.script.json', purpose: 'its model script, to run it offline', text: script },
  {
    path: 'hello.test.tsx',
    purpose: 'a snapshot test of its inspect() report, and an offline run',
    text: test,
  },
];
