/**
 * A release in three levels: the outermost agent plans it, a composite tool (`research`)
 * digs into the open issues with a `defineAgent` agent (`triage`) that reads the tracker, and
 * `deploy` needs approval. Fork a recorded run at the tracker's answer to see what the
 * release would have done with other issues (see docs/forks.md):
 *
 *   npx june run examples/forks/release.tsx --script examples/forks/release.script.json --approve all
 *   npx june fork <run id>
 *   npx june fork <run id> --at "tool issues plan#0.0/summarize#0.0/answer#0.0" \
 *     --result '"1 open blocker: login fails"' --script examples/forks/blocker.script.json --approve all
 */
import { tool } from 'ai';
import { Agent, defineAgent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const model = openai('gpt-5-mini');

export const issues = tool({
  description: 'List the open issues of a milestone',
  inputSchema: z.object({ milestone: z.string() }),
  execute: async ({ milestone }) => `no open issues in ${milestone}`,
});

export const deploy = tool({
  description: 'Deploy the release',
  inputSchema: z.object({ env: z.enum(['staging', 'prod']) }),
  needsApproval: true,
  execute: async ({ env }) => `deployed to ${env}`,
});

const Triage = defineAgent({
  name: 'triage',
  description: 'Says whether anything blocks the milestone',
  input: z.object({ milestone: z.string() }),
  model,
  prompt: ({ milestone }) => `Does anything block ${milestone}?`,
  capabilities: () => <Tool name="issues" value={issues} />,
});

export default function Release() {
  return (
    <Agent model={model} instructions="Release only what nothing blocks.">
      <Tool name="deploy" value={deploy} />
      <Tool
        name="research"
        description="Research what blocks a milestone"
        input={z.object({ milestone: z.string() })}
      >
        {({ milestone }) => (
          <Agent model={model}>
            <Triage />
            <Step id="summarize" prompt={`Summarize what blocks ${milestone}`} />
          </Agent>
        )}
      </Tool>
      <Step id="plan" prompt="Release milestone 1.2" />
    </Agent>
  );
}
