import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, june, tempProject } from '../cli/cli-harness.js';
import { startFakeOpenAI, type FakeOpenAIServer } from '../helpers/fake-openai-server.js';

// A run recorded against the real OpenAI provider (june/sdk/openai, here over the fake
// Responses server) is replayed, and resumed, in a process whose environment has nothing but
// PATH and HOME: no OPENAI_API_KEY, no OPENAI_BASE_URL. Recorded calls must never build the
// provider, so they must not ask for its configuration.

const flow = `import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const lookup = tool({ description: 'Look up the release notes', inputSchema: z.object({ version: z.string() }), execute: async ({ version }) => 'notes for ' + version });
const deploy = tool({ description: 'Deploy', inputSchema: z.object({ env: z.string() }), needsApproval: true, execute: async ({ env }) => 'deployed to ' + env });

export default function Release() {
  return (
    <Agent model={openai('gpt-5-mini')}>
      <Tool name="lookup" value={lookup} />
      <Tool name="deploy" value={deploy} />
      <Step id="release" prompt="Release 1.2" />
    </Agent>
  );
}
`;

/** `june ...args` in `cwd` with an environment of PATH and HOME only. */
function juneInEmptyEnv(
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const runIdOf = (stdout: string) => (JSON.parse(stdout.split('\n')[0]!) as { runId: string }).runId;

let server: FakeOpenAIServer;
const project = tempProject();
project.write('release.tsx', flow);

beforeAll(async () => {
  server = await startFakeOpenAI();
});
afterAll(async () => {
  await server.close();
  project.remove();
});

const turns = () => [
  {
    toolCalls: [{ name: 'lookup', arguments: { version: '1.2' } }],
    usage: { inputTokens: 10, outputTokens: 5 },
  },
  {
    toolCalls: [{ name: 'deploy', arguments: { env: 'prod' } }],
    usage: { inputTokens: 20, outputTokens: 5 },
  },
  { text: 'Released 1.2.', usage: { inputTokens: 30, outputTokens: 4 } },
];

describe('recorded calls need no provider configuration', () => {
  it('june run --replay succeeds with no OPENAI_API_KEY or OPENAI_BASE_URL and calls no server', async () => {
    server.reply(...turns());
    const recorded = await june(['run', 'release.tsx', '--approve', 'all', '--json'], project.dir, {
      OPENAI_BASE_URL: server.baseURL,
    });
    expect(recorded.stderr).toBe('');
    expect(recorded.code).toBe(0);
    const requests = server.requests.length;

    const replayed = await juneInEmptyEnv(
      ['run', 'release.tsx', '--replay', runIdOf(recorded.stdout), '--json'],
      project.dir,
    );
    expect(replayed.stderr).toBe('');
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toContain('"result":"Released 1.2."');
    expect(server.requests.length).toBe(requests);
  });

  it('june run --resume answers recorded calls without a provider; the first new call asks for one', async () => {
    server.reply(...turns().slice(0, 2));
    // no terminal and no --approve: the run stops at the deploy's approval request
    const stopped = await june(['run', 'release.tsx', '--json'], project.dir, {
      OPENAI_BASE_URL: server.baseURL,
    });
    expect(stopped.code).toBe(1);
    const requests = server.requests.length;

    const resumed = await juneInEmptyEnv(
      ['run', 'release.tsx', '--resume', runIdOf(stopped.stdout), '--approve', 'all', '--json'],
      project.dir,
    );
    // both recorded calls were answered from the journal and the deploy ran ...
    expect(resumed.stdout).toContain('"output":"deployed to prod"');
    // ... and only the third call, which no journal holds, needed OpenAI's settings
    expect(resumed.stdout).toContain('openai-not-configured');
    expect(resumed.code).toBe(1);
    expect(server.requests.length).toBe(requests);
  });
});
