import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { june, nodesOf, tempProject, traces } from './cli-harness.js';

// `june try-tool` calls one resolved tool once, its approval rule applied, as a run of its
// own; `june run --run-id` names a new run.

const flow = `import { appendFileSync } from 'node:fs';
import { tool } from 'ai';
import { Agent, RequireApproval, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const deploy = tool({
  description: 'Deploy',
  inputSchema: z.object({ env: z.string() }),
  execute: async ({ env }) => {
    appendFileSync('deploys.log', env + '\\n');
    return 'Deployed to ' + env;
  },
});

export default function Release({ guarded = true }: { guarded?: boolean }) {
  return (
    <Agent name="release" model={openai('gpt-5-mini')}>
      {guarded ? (
        <RequireApproval>
          <Tool name="deploy" value={deploy} />
        </RequireApproval>
      ) : (
        <Tool name="deploy" value={deploy} />
      )}
      <Step id="release" prompt="Deploy" />
    </Agent>
  );
}
`;

describe('june try-tool', () => {
  let project: ReturnType<typeof tempProject>;
  const deploys = () =>
    existsSync(join(project.dir, 'deploys.log'))
      ? readFileSync(join(project.dir, 'deploys.log'), 'utf8')
      : '';
  const tried = (runId: string) => traces(project.dir).get(`${runId}.json`)!;
  const toolNodes = (runId: string) => nodesOf(tried(runId)).filter((n) => n.kind === 'tool');

  beforeAll(() => {
    project = tempProject();
    project.write('flow.tsx', flow);
  });
  afterAll(() => project?.remove());

  it('calls the tool once under its <RequireApproval>, recorded as a run of its own', async () => {
    const args = ['try-tool', 'flow.tsx', '--agent', 'release', '--tool', 'deploy'];
    const input = ['--input', '{"env":"qa"}'];
    const denied = await june(
      [...args, ...input, '--approve', 'none', '--run-id', 'try-a'],
      project.dir,
    );
    expect(denied.code).toBe(0);
    expect(deploys()).toBe('');
    expect(toolNodes('try-a').map((n) => [n.status, n.approval?.status])).toEqual([
      ['denied', 'denied'],
    ]);
    // a call denied as --approve says is no failure of the try
    expect(tried('try-a').status).toBe('succeeded');
    const approved = await june(
      [...args, ...input, '--approve', 'all', '--run-id', 'try-b'],
      project.dir,
    );
    expect(approved.stderr).toBe('');
    expect(deploys()).toBe('qa\n');
    expect(tried('try-b').workflow).toBe('try deploy · flow.tsx');
    expect(toolNodes('try-b').map((n) => [n.name, n.input, n.output, n.approval?.status])).toEqual([
      ['deploy', { env: 'qa' }, 'Deployed to qa', 'approved'],
    ]);
    // the props change the tree: unguarded, the same tool needs no approval
    const open = await june(
      [...args, ...input, '--props', '{"guarded":false}', '--approve', 'none', '--run-id', 'try-c'],
      project.dir,
    );
    expect(open.code).toBe(0);
    expect(deploys()).toBe('qa\nqa\n');
    expect(toolNodes('try-c')[0]!.approval).toBeUndefined();
    // an id taken already is refused before anything runs or is written
    const trace = readFileSync(join(project.dir, '.june', 'runs', 'try-b.json'));
    const again = await june(
      [...args, ...input, '--approve', 'all', '--run-id', 'try-b'],
      project.dir,
    );
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(
      `june: there is a run try-b in ${join('.june', 'runs')} already (its trace try-b.json); pass another --run-id, or none, for a new run.\n`,
    );
    expect(deploys()).toBe('qa\nqa\n');
    expect(readFileSync(join(project.dir, '.june', 'runs', 'try-b.json'))).toEqual(trace);
  }, 120_000);

  it('fails with a june: line when the tool refuses the input, and shows no tokens or cost for its scripted turns', async () => {
    const before = deploys();
    const refused = await june(
      [
        ...['try-tool', 'flow.tsx', '--agent', 'release', '--tool', 'deploy'],
        ...['--input', '{"env":3}', '--props', '{"guarded":false}', '--run-id', 'try-bad'],
      ],
      project.dir,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `june: the call of "deploy" failed: its input does not fit the tool's input schema (env: expected string, received number); fix --input and try again.\n`,
    );
    expect(deploys()).toBe(before);
    expect(toolNodes('try-bad')[0]!.status).toBe('failed');
    // no model was called: neither the step nor the run reports tokens or a cost
    expect(refused.stdout).not.toMatch(/tokens|cost/);
    // the try failed, as its exit code says: its last line, its trace, `june runs`
    expect(refused.stdout).toMatch(/^✗ failed after \d+ ms\ntrace: /m);
    expect(refused.stdout).not.toContain('succeeded');
    expect(tried('try-bad').status).toBe('failed');
    const runs = await june(['runs'], project.dir);
    expect(runs.stdout.split('\n')).toContainEqual(
      expect.stringMatching(/^try-bad {2}try deploy · flow\.tsx {2}failed$/),
    );
    // the progress names the refused field, not the AI SDK's error text
    expect(refused.stdout).toContain(
      `✗ deploy failed: its input does not fit the tool's input schema (env: expected string, received number)\n`,
    );
  }, 120_000);

  it('names what there is for an unknown agent or tool, and refuses a bad --run-id', async () => {
    const agent = await june(
      ['try-tool', 'flow.tsx', '--agent', 'nope', '--tool', 'deploy'],
      project.dir,
    );
    expect(agent.code).toBe(1);
    expect(agent.stderr).toBe(
      'june: no agent at the path "nope" in this workflow; its agents are "release".\n',
    );
    const tool = await june(
      ['try-tool', 'flow.tsx', '--agent', 'release', '--tool', 'x'],
      project.dir,
    );
    expect(tool.stderr).toBe(
      'june: the agent "release" has no tool "x"; its tools are "deploy".\n',
    );
    const id = await june(
      ['run', 'flow.tsx', '--run-id', '../x', '--approve', 'none'],
      project.dir,
    );
    expect(id.code).toBe(2);
    expect(id.stderr).toMatch(/^june: --run-id takes 1 to 128 letters/);
  }, 120_000);

  it('checks the tried call with the guards over its agent: a rejected call does not run, an escalated one waits for a person', async () => {
    project.write(
      'guarded.tsx',
      `import { Guard } from 'june';
import Release from './flow.tsx';

export default function Guarded() {
  return (
    <Guard
      name="no-prod"
      check={({ kind, input }) =>
        kind === 'tool-input' && (input as { env?: string }).env === 'prod'
          ? { action: 'reject', reason: 'no deploys to prod from here' }
          : kind === 'tool-input' && (input as { env?: string }).env === 'eu'
            ? { action: 'escalate', reason: 'eu needs a person' }
            : 'allow'
      }
    >
      <Release guarded={false} />
    </Guard>
  );
}
`,
    );
    const args = ['try-tool', 'guarded.tsx', '--agent', 'release', '--tool', 'deploy'];
    const before = deploys();
    const rejected = await june(
      [...args, '--input', '{"env":"prod"}', '--approve', 'all', '--run-id', 'try-g1'],
      project.dir,
    );
    // a rejected call did not do its work: the try says so and fails
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toBe(
      'june: the guard "no-prod" rejected the call of "deploy": no deploys to prod from here; the tool did not run.\n',
    );
    expect(deploys()).toBe(before);
    expect(toolNodes('try-g1')[0]).toMatchObject({
      name: 'deploy',
      output: expect.stringContaining('no deploys to prod from here'),
    });
    expect(toolNodes('try-g1')[0]!.guards).toEqual([
      expect.objectContaining({ guard: 'no-prod', action: 'reject' }),
    ]);
    expect(tried('try-g1').status).toBe('failed');
    expect(rejected.stdout).toMatch(/^✗ failed after \d+ ms\ntrace: /m);
    // --approve all leaves a guard's escalation to a person, as june run does
    const escalated = await june(
      [...args, '--input', '{"env":"eu"}', '--approve', 'all', '--run-id', 'try-g2'],
      project.dir,
    );
    expect(escalated.code).toBe(1);
    expect(escalated.stderr).toMatch(/the guard "no-prod" escalated the call of "deploy"/);
    // it names only what try-tool has: no --approve wait, nothing resumes a try
    expect(escalated.stderr).toMatch(
      /pass --approve studio and answer it in Studio, or pass --approve-escalations/,
    );
    expect(deploys()).toBe(before);
    const answered = await june(
      [...args, ...['--input', '{"env":"eu"}', '--approve', 'all', '--approve-escalations']],
      project.dir,
    );
    expect(answered.code).toBe(0);
    expect(deploys()).toBe(`${before}eu\n`);
    const allowed = await june(
      [...args, '--input', '{"env":"qa"}', '--approve', 'none', '--run-id', 'try-g3'],
      project.dir,
    );
    expect(allowed.code).toBe(0);
    expect(tried('try-g3').status).toBe('succeeded');
    expect(deploys()).toBe(`${before}eu\nqa\n`);
  }, 120_000);
});
