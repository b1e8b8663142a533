import { rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { expect } from 'vitest';
import { nodesOf, onlyTrace, startJune, type RunningJune } from '../cli/cli-harness.js';
import { eventually } from './support.js';

// What the Studio tests that answer a real `june run` share: a release workflow whose deploy
// tool needs approval and logs each execution, its script, and a same-origin answer POST.

/**
 * A workflow file's text: a deploy tool that waits for approval and logs each run to `log`,
 * asked by the one step's `prompt` (the script decides the calls).
 */
export const deployFlow = (
  log = 'deploys.log',
  prompt = 'Deploy to staging',
) => `import { appendFileSync } from 'node:fs';
import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const deploy = tool({
  description: 'Deploy to an environment',
  inputSchema: z.object({ env: z.string() }),
  needsApproval: true,
  execute: async ({ env }) => {
    appendFileSync('${log}', env + '\\n');
    return 'Deployed to ' + env;
  },
});

export default function Release() {
  return (
    <Agent model={openai('gpt-5-mini')}>
      <Tool name="deploy" value={deploy} />
      <Step id="release" prompt="${prompt}" />
    </Agent>
  );
}
`;

/** The script for {@link deployFlow}: deploy to staging, then answer. */
export const deployScript = JSON.stringify({
  $comment: 'Test fixture: test/studio/deploy-run.ts',
  steps: {
    release: [{ toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] }, { text: 'Done.' }],
  },
});

/** POSTs an approval answer as Studio's own page does: same origin, with the answer token. */
export function postAnswer(
  url: string,
  body: unknown,
  token: string,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          origin: new URL(url).origin,
          'sec-fetch-site': 'same-origin',
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

/**
 * Starts `june run flow.tsx --script flow.script.json --approve <mode>` in `dir` (a project
 * holding {@link deployFlow} and a script), with no earlier runs or deploys, and waits until
 * its one deploy call waits for approval and Studio (at `studioUrl`) lists it.
 * @returns the process, the run's id, its approvals endpoint and the waiting call's key.
 */
export async function waitingDeployRun(
  dir: string,
  studioUrl: string,
  approve: 'studio' | 'wait',
): Promise<{ running: RunningJune; runId: string; endpoint: string; key: string }> {
  // a run resumed by an earlier case may still be writing its last lines as its process ends
  await rm(join(dir, '.june'), { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  await rm(join(dir, 'deploys.log'), { force: true });
  const running = startJune(
    ['run', 'flow.tsx', '--script', 'flow.script.json', '--approve', approve],
    dir,
  );
  await eventually(() => {
    const tool = nodesOf(onlyTrace(dir)).find((node) => node.kind === 'tool');
    expect(tool?.approval?.status).toBe('pending');
  }, 60_000);
  const runId = onlyTrace(dir).runId;
  const endpoint = `${studioUrl}api/runs/${runId}/approvals`;
  const listed = await eventually(async () => {
    const body = await (await fetch(endpoint)).json();
    expect(body.waiting).toHaveLength(1);
    return body;
  }, 30_000);
  return { running, runId, endpoint, key: listed.waiting[0].key as string };
}
