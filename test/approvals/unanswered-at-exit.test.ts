import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempProject } from '../cli/cli-harness.js';

// Programs that call run() on a workflow whose deploy needs approval, run as their own Node
// process (plain ESM, with June's jsx() calls written out), importing the built June.
let project: ReturnType<typeof tempProject>;
const workflow = (
  answer: string,
  turn = "[{ tool: 'deploy', input: { env: 'staging' } }]",
  options = "{ runId: 'release-1' }",
) => `import { tool } from 'ai';
import { Agent, Step, Tool, run } from 'june';
import { jsx, jsxs } from 'june/jsx-runtime';
import { scriptedModel } from 'june/testing';
import { z } from 'zod';

const deploy = tool({ description: 'Deploy', inputSchema: z.object({ env: z.string() }), needsApproval: true, execute: async ({ env }) => 'Deployed to ' + env });
const model = scriptedModel({ steps: { release: [{ toolCalls: ${turn} }, { text: 'Done.' }] } });
const handle = run(jsx(Agent, { model, children: [jsx(Tool, { name: 'deploy', value: deploy }), jsx(Step, { id: 'release', prompt: 'Deploy' })] }), ${options});
${answer}
const { output } = await handle.result;
console.log(output);
`;

function node(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [file], {
    cwd: project.dir,
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

beforeAll(() => {
  project = tempProject();
  project.write('unanswered.mjs', workflow('// nothing answers the approval'));
  project.write(
    'answered.mjs',
    workflow(
      "for await (const event of handle.events) if (event.type === 'approval-request') handle.approve(event.request.id);",
    ),
  );
  // two requests in one turn; a policy approves staging, nothing answers prod
  project.write(
    'held.mjs',
    workflow(
      '// nothing answers prod',
      "[{ tool: 'deploy', input: { env: 'staging' } }, { tool: 'deploy', input: { env: 'prod' } }]",
      "{ runId: 'release-2', onApproval: (request) => (request.input.env === 'staging' ? true : undefined) }",
    ),
  );
});
afterAll(() => project.remove());

describe('a run that waits for an approval when the process runs out of work', () => {
  it('says which run waits for which call, and how to answer it', async () => {
    const result = await node('unanswered.mjs');
    // Node's own verdict on an unsettled top-level await; June's line comes before it
    expect(result.code).toBe(13);
    expect(result.stdout).toBe('');
    const line = result.stderr.split('\n').find((text) => text.startsWith('june: '));
    expect(line).toMatch(
      /^june: the process is about to exit, but run release-1 waits for an answer to approval request "([^"]+)" \(the tool "deploy" in step "release", input \{"env":"staging"\}\), and nothing is left that could answer\. Answer each request from its approval-request event or handle\.pendingApprovals, with handle\.approve\("\1"\) or handle\.deny\("\1", reason\), or decide them all with run\(workflow, \{ onApproval: \(request\) => true \}\); handle\.abort\(\) ends the run instead\.$/,
    );
  });

  it('names the approved call that waits with the open request of its turn', async () => {
    const result = await node('held.mjs');
    expect(result.code).toBe(13);
    const line = result.stderr.split('\n').find((text) => text.startsWith('june: '));
    expect(line).toMatch(
      /^june: the process is about to exit, but run release-2 waits for an answer to approval request "([^"]+)" \(the tool "deploy" in step "release", input \{"env":"prod"\}\), and nothing is left that could answer\. The call of approval request "[^"]+" \(the tool "deploy" in step "release", input \{"env":"staging"\}\) was approved but waits too: a step goes on only once every request of its model turn is answered\. Answer each request .* handle\.approve\("\1"\)/,
    );
  });

  it('says nothing when the program answers', async () => {
    const result = await node('answered.mjs');
    expect(result).toEqual({ code: 0, stdout: 'Done.\n', stderr: '' });
  });
});
