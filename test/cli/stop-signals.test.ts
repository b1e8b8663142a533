import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Trace, TraceNode } from 'june';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingScript, waitUntil } from '../mcp/support.js';
import { nodesOf, onlyTrace, startJune, tempProject, traces } from './cli-harness.js';
import { isRunning } from '../helpers/processes.js';

// `june run` stopped by a signal while a real bash command or a busy MCP tool (a real server
// over stdio) runs: the run is aborted, its processes end, its trace is settled and its
// journal can be resumed; the exit code is 128 + the signal's number.

let project: ReturnType<typeof tempProject>;
const marker = `june-stop-signal-test-${process.pid}`;

beforeAll(() => {
  project = tempProject();
  project.write(
    'shell.tsx',
    `import { Agent, Step } from 'june';
import { Bash } from 'june/tools';
import { scriptedModel } from 'june/testing';

const command = 'sleep 300 & echo $! > sleep.pid; echo $$ > bash.pid; wait';
const model = scriptedModel({ steps: { build: [{ toolCalls: [{ tool: 'bash', input: { command } }] }, { text: 'never' }] } });

export default function Shell() {
  return (
    <Agent model={model}>
      <Bash cwd={process.cwd()} />
      <Step id="build" prompt="Build it" />
    </Agent>
  );
}
`,
  );
  project.write(
    'mcp.tsx',
    `import { Agent, defineMCPServer, Step } from 'june';
import { scriptedModel } from 'june/testing';

const Everything = defineMCPServer({ name: 'Everything', command: process.execPath, args: [${JSON.stringify(everythingScript)}, 'stdio', ${JSON.stringify(marker)}] });
const call = { tool: 'trigger-long-running-operation', input: { duration: 300, steps: 1 } };
const model = scriptedModel({ steps: { slow: [{ toolCalls: [call] }, { text: 'never' }] } });

export default function Busy() {
  return (
    <Agent model={model}>
      <Everything />
      <Step id="slow" prompt="Take your time" />
    </Agent>
  );
}
`,
  );
  project.write(
    'stuck.tsx',
    `import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { scriptedModel } from 'june/testing';
import { z } from 'zod';

// A tool that never ends and never looks at its abort signal.
const stuck = tool({ description: 'Never ends', inputSchema: z.object({}), execute: () => new Promise(() => {}) });
const model = scriptedModel({ steps: { hang: [{ toolCalls: [{ tool: 'stuck' }] }, { text: 'never' }] } });

export default function Stuck() {
  return (
    <Agent model={model}>
      <Tool name="stuck" value={stuck} />
      <Step id="hang" prompt="Hang" />
    </Agent>
  );
}
`,
  );
});
afterAll(() => project.remove());

/** Pids of running processes whose command line holds `text`. */
function processesWith(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return (
          readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text) && isRunning(Number(entry))
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

const readPid = (path: string) =>
  existsSync(path) ? Number(readFileSync(path, 'utf8').trim()) : 0;
const openNodes = (trace: Trace): TraceNode[] =>
  nodesOf(trace).filter(
    (node) => node.status === 'running' || node.status === 'waiting' || !node.endedAt,
  );

function lastJournalRecord(cwd: string, runId: string): { type: string; status?: string } {
  const lines = readFileSync(join(cwd, '.june', 'runs', runId, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n');
  return JSON.parse(lines.at(-1)!);
}

describe('june run stopped by a signal', () => {
  it('SIGTERM during a bash command: the command and its children end, the trace is aborted, the journal resumable, exit 143', async () => {
    const cwd = project.folder('term');
    const running = startJune(['run', '../shell.tsx', '--approve', 'all'], cwd);
    await waitUntil(
      () => readPid(join(cwd, 'sleep.pid')) > 0 && readPid(join(cwd, 'bash.pid')) > 0,
      'the bash command started',
      30_000,
    );
    const pids = [readPid(join(cwd, 'bash.pid')), readPid(join(cwd, 'sleep.pid'))];
    expect(pids.every(isRunning)).toBe(true);

    process.kill(running.pid, 'SIGTERM');
    const result = await running.done;
    expect(result.code).toBe(143);
    expect(result.stderr).toContain(
      'june: SIGTERM received; aborting the run and writing its trace',
    );
    await waitUntil(() => !pids.some(isRunning), 'bash and sleep ended', 5000);

    const trace = onlyTrace(cwd);
    expect(trace.status).toBe('aborted');
    expect(trace.root.error).toMatchObject({
      code: 'run-aborted',
      message: 'june: the run was aborted: stopped by SIGTERM',
    });
    expect(openNodes(trace)).toEqual([]);
    expect(result.stdout).toContain(`--resume ${trace.runId}`);
    expect(lastJournalRecord(cwd, trace.runId)).toMatchObject({
      type: 'run-finish',
      status: 'aborted',
    });
  }, 60_000);

  it('SIGHUP during a busy MCP tool over stdio: the server process ends, the trace is aborted, exit 129', async () => {
    const cwd = project.folder('hup');
    const running = startJune(['run', '../mcp.tsx'], cwd);
    const busy = () =>
      [...traces(cwd).values()].some((trace) =>
        nodesOf(trace).some((node) => node.kind === 'tool' && node.status === 'running'),
      );
    await waitUntil(
      () => {
        try {
          return busy();
        } catch {
          return false; // a trace file being replaced
        }
      },
      'the MCP tool was called',
      60_000,
    );
    const servers = processesWith(marker);
    expect(servers).toHaveLength(1);

    process.kill(running.pid, 'SIGHUP');
    const result = await running.done;
    expect(result.code).toBe(129);
    expect(result.stderr).toContain('june: SIGHUP received; aborting the run');
    await waitUntil(() => !servers.some(isRunning), 'the MCP server ended', 5000);

    const trace = onlyTrace(cwd);
    expect(trace.status).toBe('aborted');
    expect(trace.root.error?.message).toBe(
      'june: the run was aborted: stopped by SIGHUP (its terminal closed)',
    );
    expect(openNodes(trace)).toEqual([]);
    expect(nodesOf(trace).find((node) => node.kind === 'tool')).toMatchObject({
      name: 'trigger-long-running-operation',
      status: 'aborted',
    });
  }, 120_000);

  it('a second SIGINT while a tool ignores the abort: exits 130 at once, leaving the trace settled and naming what still ran', async () => {
    const cwd = project.folder('twice');
    const running = startJune(['run', '../stuck.tsx'], cwd);
    await waitUntil(
      () => running.output().stdout.includes('→ stuck') && traces(cwd).size === 1,
      'the tool was called',
      30_000,
    );
    process.kill(running.pid, 'SIGINT');
    await waitUntil(
      () => running.output().stderr.includes('june: interrupted'),
      'the first SIGINT was handled',
    );
    process.kill(running.pid, 'SIGINT');
    const result = await running.done;

    expect(result.code).toBe(130);
    const trace = onlyTrace(cwd);
    expect(trace.status).toBe('aborted');
    expect(trace.root.error?.message).toMatch(
      /^june: the run was aborted: interrupted with Ctrl-C; a second SIGINT ended June before the run had stopped/,
    );
    expect(openNodes(trace)).toEqual([]);
  }, 60_000);
});
