/**
 * The release workflow: an agent that may read files and deploy, where a deploy waits for
 * a person's approval.
 *
 *   npx june run examples/release.tsx --script examples/release.script.json   # offline
 *   OPENAI_API_KEY=sk-... npx june run examples/release.tsx                    # a real model
 */
import { readFile as readText } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const folder = dirname(fileURLToPath(import.meta.url));

const readFile = tool({
  description:
    'Read a text file of the release (a path relative to the release folder, e.g. CHANGELOG.md)',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => readText(resolve(folder, path), 'utf8'),
});

const deploy = tool({
  description: 'Deploy to an environment',
  inputSchema: z.object({ env: z.enum(['staging', 'prod']) }),
  needsApproval: true,
  execute: async ({ env }) => `Deployed to ${env}`,
});

export default function Release() {
  return (
    <Agent model={openai('gpt-5-mini')}>
      <Tool name="readFile" value={readFile} />
      <Tool name="deploy" value={deploy} />
      <Step id="release" prompt="Check the changelog, then deploy to staging" />
    </Agent>
  );
}
