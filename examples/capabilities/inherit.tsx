/**
 * Grants: a tool the parent wrapped crosses into a nested agent as the parent has it. Here
 * the deploy tool arrives as ops_deploy and still waits for approval.
 *
 *   npx june inspect examples/capabilities/inherit.tsx
 *   npx june run examples/capabilities/inherit.tsx --script examples/capabilities/inherit.script.json
 */
import { tool } from 'ai';
import { Agent, Inherit, Namespace, RequireApproval, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const deploy = tool({
  description: 'Deploy the current build to an environment',
  inputSchema: z.object({ env: z.enum(['staging', 'prod']) }),
  execute: async ({ env }) => `Deployed to ${env}`,
});

const status = tool({
  description: 'Read the status of an environment',
  inputSchema: z.object({ env: z.enum(['staging', 'prod']) }),
  execute: async ({ env }) => `${env}: healthy, build 412`,
});

export default function Rollout() {
  return (
    <Agent model={openai('gpt-5-mini')} name="lead">
      <Namespace name="ops">
        <Tool name="status" value={status} />
        <RequireApproval>
          <Tool name="deploy" value={deploy} />
        </RequireApproval>
      </Namespace>

      <Agent model={openai('gpt-5-nano')} name="deployer">
        <Inherit capabilities={['ops_deploy']} />
        <Step id="ship" prompt="Deploy build 412 to staging." />
      </Agent>

      <Agent model={openai('gpt-5-nano')} name="checker">
        <Inherit capabilities={['ops_status']} />
        <Step id="check" prompt="Is staging healthy?" />
      </Agent>
    </Agent>
  );
}
