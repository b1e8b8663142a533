// `june run --replay` of a workflow with <Bash>, an MCP server's tool (server-everything over
// stdio, behind a proxy that logs its tool calls) and a composite tool, recorded once with a
// model script: it replays green twice in a row, although each replay runs in another temp
// folder whose command takes another time; with --replay-tools no tool runs (the side-effect
// file the tools write stays as it was). The mismatch message says which the replay did.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { june, nodesOf, repoRoot, tempProject, traces } from './cli-harness.js';

const proxy = join(repoRoot, 'test', 'fixtures', 'mcp', 'call-log-proxy.mjs');
const everything = join(
  repoRoot,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

const flow = `import { appendFileSync } from 'node:fs';
import { tool } from 'ai';
import { Agent, defineMCPServer, Inherit, Step, Tool } from 'june';
import { Bash } from 'june/tools';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const work = process.env.WORK_DIR;
const sideEffects = process.env.SIDE_EFFECTS;
const Everything = defineMCPServer({
  name: 'Everything',
  command: process.execPath,
  args: [${JSON.stringify(proxy)}, sideEffects, ${JSON.stringify(everything)}, 'stdio'],
});
const deploy = tool({
  description: 'Deploy the release',
  inputSchema: z.object({ env: z.string() }),
  needsApproval: true,
  execute: async ({ env }) => {
    appendFileSync(sideEffects, 'deploy ' + env + '\\n');
    return 'deployed to ' + env;
  },
});
const model = openai('gpt-5-mini');

export default function Release() {
  return (
    <Agent model={model} instructions="Release with the tools you have.">
      <Bash needsApproval={false} cwd={work} env={{ SIDE_EFFECTS: sideEffects }} />
      <Everything />
      <Tool name="deploy" value={deploy} />
      <Tool name="notes" description="Summarize the release notes" input={z.object({ version: z.string() })}>
        {({ version }) => (
          <Agent model={model}>
            <Inherit capabilities={['bash']} />
            <Step id="summary" prompt={'Summarize the notes of ' + version} />
          </Agent>
        )}
      </Tool>
      <Step id="release" prompt={'Release ' + (process.env.VERSION ?? '1.2')} />
    </Agent>
  );
}
`;

const script = {
  $comment: 'Test fixture: scripted model turns for release.tsx.',
  steps: {
    release: [
      {
        toolCalls: [
          {
            tool: 'bash',
            input: {
              command: 'sleep "$(cat delay.txt)"; echo bash >> "$SIDE_EFFECTS"; cat notes.txt',
            },
          },
        ],
      },
      { toolCalls: [{ tool: 'echo', input: { message: 'release 1.2' } }] },
      { toolCalls: [{ tool: 'notes', input: { version: '1.2' } }] },
      { toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] },
      { text: 'Released 1.2 to staging.' },
    ],
    'notes:summary': [
      {
        toolCalls: [
          { tool: 'bash', input: { command: 'echo notes >> "$SIDE_EFFECTS"; cat notes.txt' } },
        ],
      },
      { text: '1.2 fixes the login bug.' },
    ],
  },
};

const project = tempProject();
project.write('release.tsx', flow);
project.write('release.script.json', JSON.stringify(script));
afterAll(() => project.remove());

let folders = 0;
/** A new work folder for the commands, with how long they sleep and the notes they print. */
function workFolder(delaySeconds: number, notes = 'Fixes the login bug.\n') {
  const dir = project.folder(`work-${++folders}`);
  writeFileSync(join(dir, 'delay.txt'), String(delaySeconds));
  writeFileSync(join(dir, 'notes.txt'), notes);
  return dir;
}

const sideEffects = join(project.dir, 'side-effects.log');
const effects = () => {
  try {
    return readFileSync(sideEffects, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};
const env = (work: string, extra: Record<string, string> = {}) => ({
  WORK_DIR: work,
  SIDE_EFFECTS: sideEffects,
  ...extra,
});
const runIdOf = (stdout: string) => (JSON.parse(stdout.split('\n')[0]!) as { runId: string }).runId;
const lastLine = (stdout: string) =>
  JSON.parse(stdout.trim().split('\n').at(-1)!) as { type: string; status?: string };
/** Every Bash call's durationMs in a run's trace, child runs included. */
function durations(runId: string): number[] {
  const trace = traces(project.dir).get(`${runId}.json`)!;
  const all: number[] = [];
  const walk = (nodes: ReturnType<typeof nodesOf>) => {
    for (const node of nodes) {
      const output = node.output as { durationMs?: number; trace?: Parameters<typeof nodesOf>[0] };
      if (node.kind === 'tool' && node.name === 'bash') all.push(output.durationMs!);
      if (node.kind === 'tool' && output?.trace) walk(nodesOf(output.trace));
    }
  };
  walk(nodesOf(trace));
  return all;
}

describe('june run --replay of a workflow with <Bash>, an MCP tool and a composite tool', () => {
  let recorded = '';

  it('records once, then replays green twice in a row, each replay running the tools again', async () => {
    const record = await june(
      ['run', 'release.tsx', '--script', 'release.script.json', '--approve', 'all', '--json'],
      project.dir,
      env(workFolder(0.05)),
    );
    expect(record.stderr).toBe('');
    expect(record.code).toBe(0);
    recorded = runIdOf(record.stdout);
    // the events keep Bash's durationMs
    expect(record.stdout).toMatch(/"durationMs":\d+/);
    expect(effects()).toEqual(['bash', 'mcp echo', 'notes', 'deploy staging']);

    for (const delay of [0.6, 0.3]) {
      // another folder, and a command that now takes another time
      const replay = await june(
        ['run', 'release.tsx', '--replay', recorded, '--json'],
        project.dir,
        env(workFolder(delay)),
      );
      expect(replay.stderr).toBe('');
      expect(replay.code).toBe(0);
      expect(lastLine(replay.stdout)).toMatchObject({ type: 'run-finish', status: 'succeeded' });
      expect(replay.stdout).toContain('"result":"Released 1.2 to staging."');
      const [outer] = durations(runIdOf(replay.stdout));
      // the trace keeps the time it took, which the model never saw
      expect(outer).toBeGreaterThanOrEqual(delay * 1000);
    }
    // the tools ran in each replay: bash, the MCP server, the composite's bash, the deploy
    expect(effects()).toHaveLength(12);
    expect(durations(recorded)[0]).toBeLessThan(600);
  }, 120_000);

  it('with --replay-tools no tool runs: the side-effect file stays as it was', async () => {
    const before = effects();
    const replay = await june(
      ['run', 'release.tsx', '--replay', recorded, '--replay-tools'],
      project.dir,
      env(workFolder(0.2)),
    );
    expect(replay.stderr).toBe('');
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain(`replaying ${recorded} (tools answered from the recording)`);
    expect(replay.stdout).toContain('Released 1.2 to staging.');
    expect(effects()).toEqual(before);
  }, 60_000);

  it("says the tools ran when a tool's result differs, and that they were replayed when the workflow does", async () => {
    const other = workFolder(0.01, 'Fixes the logout bug.\n');
    const ran = await june(['run', 'release.tsx', '--replay', recorded], project.dir, env(other));
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('first difference at message 4 (tool)');
    expect(ran.stderr).toContain('Tool calls ran for real in this replay');
    expect(ran.stderr).toContain('june run --replay-tools');

    // answered from the recording, the changed notes do not matter ...
    const replayed = await june(
      ['run', 'release.tsx', '--replay', recorded, '--replay-tools', '--json'],
      project.dir,
      env(other),
    );
    expect(replayed.code).toBe(0);
    // ... but a changed prompt does, and the message says no tool ran
    const edited = await june(
      ['run', 'release.tsx', '--replay', recorded, '--replay-tools'],
      project.dir,
      env(other, { VERSION: '1.3' }),
    );
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain('recorded "Release 1.2", now "Release 1.3"');
    expect(edited.stderr).toContain('Tool calls were answered from the recording');
  }, 120_000);

  it('refuses --replay-tools without --replay, before anything runs', async () => {
    const before = effects();
    mkdirSync(join(project.dir, 'empty'), { recursive: true });
    const refused = await june(
      ['run', 'release.tsx', '--replay-tools', '--script', 'release.script.json'],
      project.dir,
      env(join(project.dir, 'empty')),
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'june: --replay-tools answers tool calls from the recording --replay names; pass it with --replay <runId|file>.\n',
    );
    expect(effects()).toEqual(before);
  });

  it('refuses --replay and --replay-tools with --database, whose workers would never read the recording', async () => {
    for (const flags of [
      ['--replay', recorded],
      ['--replay', recorded, '--replay-tools'],
    ]) {
      const refused = await june(
        ['run', 'release.tsx', '--database', 'postgres://127.0.0.1:9/none', ...flags],
        project.dir,
        env(join(project.dir, 'empty')),
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /^june: --replay reads a journal in \.june\/runs here, and --database enqueues a run for the workers, which never reads it; leave out one of them/,
      );
    }
  });
});
