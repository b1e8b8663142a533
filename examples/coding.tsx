/**
 * A coding agent that fixes a failing test, with every tool working in one scratch directory.
 *
 * The workflow sets up a tiny project in the scratch directory (`sum.js`, which subtracts
 * instead of adding, and `sum.test.js`, run by `node --test`), then one agent reads the test,
 * reads the source, writes the fix and runs the tests with bash. The file tools refuse paths
 * outside the scratch directory; bash starts there but is not confined to it (docs/bash.md),
 * so it asks for approval before each command.
 *
 * The scratch directory: pass it as the `dir` prop (created if missing; its `sum.js` and
 * `sum.test.js` are overwritten), or leave it out and the workflow makes a fresh one under
 * the system's temp directory with `fs.mkdtemp` (`june-coding-XXXXXX`).
 *
 *   npx june run examples/coding.tsx                       # asks before each bash command
 *   npx june run examples/coding.tsx --props '{"dir": "./scratch"}'
 *   npx june run examples/coding.tsx --script examples/coding.script.json --approve all   # offline
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { tool } from 'ai';
import { z } from 'zod';
import { Agent, Step, Tool, defineCapabilities } from 'june';
import { openai } from 'june/sdk/openai';
import { Bash } from 'june/tools';

/** The project the agent starts from: one bug, one test that catches it. */
export const exerciseFiles: Readonly<Record<string, string>> = {
  // CommonJS, also when the scratch directory is inside an ESM package ("type": "module")
  'package.json': '{ "type": "commonjs" }\n',
  'sum.js': 'exports.sum = function sum(a, b) {\n  return a - b;\n};\n',
  'sum.test.js': [
    "const test = require('node:test');",
    "const assert = require('node:assert/strict');",
    "const { sum } = require('./sum.js');",
    '',
    "test('sum adds two numbers', () => {",
    '  assert.equal(sum(2, 3), 5);',
    '});',
    '',
  ].join('\n'),
};

/**
 * The absolute path of `path` inside `dir`. Throws when it leads out of `dir` (`../x`, an
 * absolute path elsewhere). The message names only the path the model gave, never `dir`.
 */
function inside(dir: string, path: string): string {
  const full = resolve(dir, path);
  const rel = relative(dir, full);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new Error(
      `the path ${JSON.stringify(path)} is not a file inside the project directory; use a relative path such as "sum.js"`,
    );
  }
  return full;
}

/** Runs a file operation, rethrowing its error with the model's path instead of the absolute one. */
async function onFile<T>(verb: string, path: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new Error(`cannot ${verb} ${JSON.stringify(path)}: ${code}`);
  }
}

/** A tool that reads a text file inside `dir`, by a path relative to it. */
export function readFileIn(dir: string) {
  return tool({
    description: 'Read a text file of the project. The path is relative to the project directory.',
    inputSchema: z.object({ path: z.string().describe('e.g. "sum.js"') }),
    execute: async ({ path }) => {
      const full = inside(dir, path);
      return onFile('read', path, () => readFile(full, 'utf8'));
    },
  });
}

/** A tool that replaces (or creates) a text file inside `dir`, by a path relative to it. */
export function writeFileIn(dir: string) {
  return tool({
    description:
      'Replace a text file of the project, or create it. The path is relative to the project directory.',
    inputSchema: z.object({
      path: z.string().describe('e.g. "sum.js"'),
      text: z.string().describe('the whole new content'),
    }),
    execute: async ({ path, text }) => {
      const full = inside(dir, path);
      await onFile('write', path, async () => {
        await mkdir(dirname(full), { recursive: true });
        await writeFile(full, text);
      });
      return `wrote ${Buffer.byteLength(text)} bytes to ${path}`;
    },
  });
}

/**
 * readFile, writeFile and bash, all working in `dir`. bash asks before each command; its
 * provenance in the trace is `<Bash> in <Coding>`.
 *
 * @example
 * ```tsx
 * <Agent model={openai('gpt-5-mini')}>
 *   <Coding dir="./scratch" />
 *   <Step id="fix" prompt="Make the failing test pass" />
 * </Agent>
 * ```
 */
export const Coding = defineCapabilities(
  ({ dir }: { dir: string }) => (
    <>
      <Tool name="readFile" value={readFileIn(dir)} />
      <Tool name="writeFile" value={writeFileIn(dir)} />
      <Bash cwd={dir} timeoutMs={60_000} />
    </>
  ),
  { name: 'Coding' },
);

/** Props of {@link FixFailingTest}. */
export interface FixFailingTestProps {
  /** The scratch directory. @default a fresh directory under os.tmpdir(), made with fs.mkdtemp */
  dir?: string;
}

/** Sets up the failing project in the scratch directory, then lets an agent fix it. */
export default async function FixFailingTest({ dir }: FixFailingTestProps) {
  const scratch = dir === undefined ? await mkdtemp(join(tmpdir(), 'june-coding-')) : resolve(dir);
  await mkdir(scratch, { recursive: true });
  for (const [name, text] of Object.entries(exerciseFiles))
    await writeFile(join(scratch, name), text);

  return (
    <Agent
      model={openai('gpt-5-mini')}
      name="coder"
      instructions="You fix bugs in a small JavaScript project. File paths are relative to the project directory, and bash runs there too. Change only what the fix needs."
    >
      <Coding dir={scratch} />
      <Step
        id="fix"
        prompt="The test in sum.test.js fails. Read the test, read sum.js, fix the bug in sum.js with writeFile, then run the tests with bash (`node --test`) and say whether they pass."
      />
    </Agent>
  );
}
