/**
 * The release workflow of the evals example: an agent reads the release's changelog and
 * deploys it, where a deploy waits for an approval. Its props are the release, so a dataset
 * of changelogs (changelogs.jsonl) runs it once per release.
 *
 *   npx june run examples/evals/release.tsx --props '{"version":"1.2.1","changelog":"- Fixed: ..."}' \
 *     --script examples/evals/scripts/patch.script.json --approve all        # offline
 */
import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

/** The release to ship: its version and its changelog's text. */
export interface ReleaseProps {
  version: string;
  changelog: string;
}

const deploy = tool({
  description: 'Deploy the release to an environment',
  inputSchema: z.object({ env: z.enum(['staging', 'prod']) }),
  needsApproval: true,
  execute: async ({ env }) => `Deployed to ${env}`,
});

export default function Release({ version, changelog }: ReleaseProps) {
  const readChangelog = tool({
    description: `Read the changelog of release ${version}`,
    inputSchema: z.object({}),
    execute: async () => changelog,
  });
  return (
    <Agent model={openai('gpt-5-mini')}>
      <Tool name="readChangelog" value={readChangelog} />
      <Tool name="deploy" value={deploy} />
      <Step
        id="release"
        prompt={`Release ${version}: read its changelog, deploy it to staging (never to prod), then say in one sentence which version you deployed where.`}
      />
    </Agent>
  );
}
