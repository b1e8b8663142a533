/**
 * A release that asks a person where to deploy and for its release notes, then deploys:
 * two `<Question>`s, a choice and a form, beside an ordinary tool. Offline, the script
 * answers both questions as a person would:
 *
 *   npx tsx examples/questions/ship-offline.tsx
 */
import { tool } from 'ai';
import { Agent, Question, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const deploy = tool({
  description: 'Deploy a version to an environment, with its release notes',
  inputSchema: z.object({
    version: z.string(),
    env: z.enum(['staging', 'prod']),
    title: z.string(),
  }),
  execute: async ({ version, env, title }) => `Deployed ${version} ("${title}") to ${env}`,
});

export default function Ship({ version = '1.2.0' }: { version?: string }) {
  return (
    <Agent model={openai('gpt-5-mini')}>
      {/* a choice, asked as written; after ten minutes without an answer, staging */}
      <Question
        name="ask_env"
        prompt={`Where should ${version} go?`}
        answer={z.enum(['staging', 'prod'])}
        timeoutMs={10 * 60_000}
        onTimeout={{ answer: 'staging' }}
      />
      {/* a form, asked in the model's own words */}
      <Question
        name="ask_notes"
        answer={z.object({ title: z.string().min(1), highlights: z.array(z.string()).max(3) })}
      />
      <Tool name="deploy" value={deploy} />
      <Step
        id="ship"
        prompt={`Ship ${version}: ask where to deploy and for the release notes, then deploy.`}
      />
    </Agent>
  );
}
