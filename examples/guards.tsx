/**
 * Guards: a policy over a part of the workflow. `<Guard name="release-policy">` checks every
 * tool call beneath it before the tool runs (the release agent's own, and those the tester, a
 * defined agent, makes in its run of its own) and every step's answer before it is returned:
 *
 * - a forced deploy is rejected: it never runs, and the model reads why;
 * - a deploy to prod is escalated: it waits for a person's approval, with the reason shown;
 * - tests against the production database trip the guard: the run fails;
 * - an answer that holds an API key trips it too, before any of its text is shown.
 *
 *   npx june inspect examples/guards.tsx                                              # each tool's guards
 *   npx june run examples/guards.tsx --script examples/guards.script.json             # you answer the escalation
 *   npx june run examples/guards.tsx --script examples/guards.script.json --approve all --approve-escalations
 */
import { tool } from 'ai';
import { Agent, defineAgent, Guard, Step, Tool, type GuardSubject } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

export const deploy = tool({
  description: 'Deploy to an environment',
  inputSchema: z.object({ env: z.enum(['staging', 'prod']), force: z.boolean().optional() }),
  execute: async ({ env }) => `Deployed to ${env}`,
});

const runTests = tool({
  description: 'Run a test suite against a database',
  inputSchema: z.object({ suite: z.string(), database: z.enum(['test', 'production']) }),
  execute: async ({ suite }) => `${suite}: 42 passed`,
});

/** Runs the tests in a run of its own: one tool to the release agent. */
export const Tester = defineAgent({
  name: 'tester',
  description: 'Runs a test suite and reports the result',
  input: z.object({ suite: z.string() }),
  model: openai('gpt-5-mini'),
  prompt: ({ suite }) => `Run the ${suite} tests and report the result.`,
  capabilities: () => <Tool name="runTests" value={runTests} />,
});

/** The release policy: one function, asked about every tool call and every answer beneath it. */
export function releasePolicy({ kind, tool: name, input, output }: GuardSubject) {
  const call = (input ?? {}) as { env?: string; force?: boolean; database?: string };
  if (kind === 'tool-input' && name === 'deploy' && call.force)
    return {
      action: 'reject' as const,
      reason: 'a forced deploy skips the checks; deploy without force',
    };
  if (kind === 'tool-input' && name === 'deploy' && call.env === 'prod')
    return { action: 'escalate' as const, reason: 'a deploy to prod needs a person' };
  if (kind === 'tool-input' && call.database === 'production')
    return { action: 'trip' as const, reason: 'tests never touch the production database' };
  if (kind === 'output' && /sk-[A-Za-z0-9]{8,}/.test(JSON.stringify(output ?? '')))
    return { action: 'trip' as const, reason: 'the answer holds an API key' };
  return 'allow' as const;
}

export default function GuardedRelease() {
  return (
    <Guard name="release-policy" check={releasePolicy}>
      <Agent model={openai('gpt-5-mini')} name="release">
        <Tester />
        <Tool name="deploy" value={deploy} />
        <Step id="ship" prompt="Run the unit tests, then deploy to prod." />
      </Agent>
    </Guard>
  );
}
