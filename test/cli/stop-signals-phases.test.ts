import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../mcp/support.js';
import { onlyTrace, startJune, tempProject } from './cli-harness.js';
import { isRunning, pidsIn } from '../helpers/processes.js';

// `june run` stopped by SIGINT, SIGTERM or SIGHUP in every phase of a run: while an agent's
// capabilities resolve (a tool source that never answers and ignores its abort signal),
// while an MCP server starts (it answers `initialize` after ten minutes) or lists its tools,
// while a `<Bash>` command runs, while a model call runs. Each time June exits with
// 128 + the signal's number within the abort grace, and no process it started is left,
// checked by pid: the MCP server (which ignores SIGTERM) and its child, bash and its
// `sleep` (which ignore SIGTERM too). A second signal quits at once and leaves nothing
// either; nor does `kill -9`.

const slowServer = fileURLToPath(new URL('../fixtures/mcp/slow-server.mjs', import.meta.url));
/** The run's abort grace (DEFAULT_ABORT_GRACE_MS), in ms. */
const GRACE_MS = 5000;
/** What a loaded machine adds to a stop: process exit, trace writing. */
const SLACK_MS = 4000;

let project: ReturnType<typeof tempProject>;

beforeAll(() => {
  project = tempProject();
  project.write(
    'phases.tsx',
    `import { writeFileSync } from 'node:fs';
import { Agent, defineMCPServer, defineToolSource, Step } from 'june';
import { Bash } from 'june/tools';
import { scriptedModel } from 'june/testing';

// PHASE says where the run stays until it is stopped: resolve, mcp-start, mcp-list, bash, model.
const phase = process.env.PHASE;
const never = 600_000;
const Slow = defineMCPServer({
  name: 'Slow',
  command: process.execPath,
  args: [${JSON.stringify(slowServer)}, '--dir', process.cwd(), '--child', '--ignore-term',
    '--initialize-ms', String(phase === 'mcp-start' ? never : 0),
    '--list-ms', String(phase === 'mcp-list' ? never : 0)],
  timeoutMs: never,
});
// a tool source that never connects and never looks at its abort signal
const Stuck = defineToolSource({
  name: 'Stuck',
  connect: () => {
    writeFileSync('resolving', '');
    return new Promise(() => {});
  },
});
const command = 'trap "" TERM; sleep 300 & echo $! > sleep.pid; echo $$ > bash.pid; wait';
const scripted = scriptedModel({
  steps: { work: [{ toolCalls: [{ tool: 'bash', input: { command } }] }, { text: 'done' }] },
});
// a model call that ends only when aborted, as a provider's request does
const waiting = {
  specificationVersion: 'v3' as const,
  provider: 'test',
  modelId: 'waiting',
  supportedUrls: {},
  doGenerate: () => waitForAbort(),
  doStream: ({ abortSignal }: { abortSignal?: AbortSignal }) => waitForAbort(abortSignal),
};
function waitForAbort(signal?: AbortSignal): Promise<never> {
  writeFileSync('model-called', '');
  return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
}

export default function Phases() {
  return (
    <Agent model={phase === 'model' ? waiting : scripted}>
      <Slow />
      {phase === 'resolve' ? <Stuck /> : null}
      <Bash cwd={process.cwd()} needsApproval={false} />
      <Step id="work" prompt="Work" />
    </Agent>
  );
}
`,
  );
});
afterAll(() => project.remove());

/** What marks that the run reached each phase, in the run's folder. */
const reached: Record<string, (cwd: string) => boolean> = {
  resolve: (cwd) =>
    existsSync(join(cwd, 'resolving')) && pidsIn(join(cwd, 'server.pid')).length === 2,
  'mcp-start': (cwd) => existsSync(join(cwd, 'initialize')),
  'mcp-list': (cwd) => existsSync(join(cwd, 'tools-list')),
  bash: (cwd) =>
    pidsIn(join(cwd, 'sleep.pid')).length === 1 && pidsIn(join(cwd, 'bash.pid')).length === 1,
  model: (cwd) => existsSync(join(cwd, 'model-called')),
};

/** Every process the run started that the test can name: the MCP server and its child, bash and sleep. */
const childrenOf = (cwd: string): number[] => [
  ...pidsIn(join(cwd, 'server.pid')),
  ...pidsIn(join(cwd, 'bash.pid')),
  ...pidsIn(join(cwd, 'sleep.pid')),
];

/** Starts `june run phases.tsx` in a folder of its own and waits until it reached `phase`. */
async function runUntil(phase: string, name: string) {
  const cwd = project.folder(name);
  const running = startJune(['run', '../phases.tsx'], cwd, { PHASE: phase });
  const exited = running.done.then((result) => {
    throw new Error(`june exited before the ${phase} phase: ${result.code} ${result.stderr}`);
  });
  exited.catch(() => {});
  await Promise.race([waitUntil(() => reached[phase]!(cwd), `the ${phase} phase`, 60_000), exited]);
  const children = childrenOf(cwd);
  expect(children.length).toBeGreaterThan(0);
  expect(children.every(isRunning)).toBe(true);
  return { cwd, running, children };
}

const exitCodes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

describe('june run stopped in every phase of a run', () => {
  const cases = ['resolve', 'mcp-start', 'mcp-list', 'bash', 'model'].flatMap((phase) =>
    (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => ({ phase, signal })),
  );

  it.each(cases)(
    '$signal during $phase: exits $signal within the grace, leaving no process behind',
    async ({ phase, signal }) => {
      const { cwd, running, children } = await runUntil(phase, `${phase}-${signal}`);
      const sentAt = Date.now();
      process.kill(running.pid, signal);
      const result = await running.done;
      const tookMs = Date.now() - sentAt;

      expect(result.code, result.stderr).toBe(exitCodes[signal]);
      expect(tookMs).toBeLessThan(GRACE_MS + SLACK_MS);
      expect(children.filter(isRunning)).toEqual([]);
      const trace = onlyTrace(cwd);
      expect(trace.status).toBe('aborted');
      expect(trace.root.error?.code).toBe('run-aborted');
      // the step never finished: no model answer or tool result was made up
      expect(result.stdout).not.toContain('done');
    },
    90_000,
  );

  it.each([
    { phase: 'bash', signal: 'SIGINT' as const },
    { phase: 'mcp-start', signal: 'SIGTERM' as const },
  ])(
    'a second $signal during $phase quits at once, and what ignores SIGTERM is killed too',
    async ({ phase, signal }) => {
      const { running, children } = await runUntil(phase, `${phase}-twice`);
      process.kill(running.pid, signal);
      await waitUntil(
        () => running.output().stderr.includes('to quit at once'),
        'the first signal',
      );
      const sentAt = Date.now();
      process.kill(running.pid, signal);
      const result = await running.done;

      expect(result.code).toBe(exitCodes[signal]);
      // long before the server's and bash's own SIGKILL after their grace
      expect(Date.now() - sentAt).toBeLessThan(1500);
      await waitUntil(() => !children.some(isRunning), 'every process June started ended', 2000);
    },
    90_000,
  );

  it('kill -9 during a command: what June started ends without it', async () => {
    const { running, children } = await runUntil('bash', 'killed');
    process.kill(running.pid, 'SIGKILL');
    const result = await running.done;
    expect(result.signal).toBe('SIGKILL');
    // SIGTERM from the watchdogs, then SIGKILL after their 2 s grace (all of these ignore SIGTERM)
    await waitUntil(() => !children.some(isRunning), 'every process June started ended', 15_000);
  }, 90_000);
});
