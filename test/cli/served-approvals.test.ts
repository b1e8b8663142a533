// `june run` of a workflow that calls a served June workflow through defineMCPServer: the
// served run's approval is prompted at the terminal like any of the run's own, or waits in
// the runs folder for Studio's answer (`--approve studio`, answered through the folder's run
// host as Studio's server answers). The server is serveWorkflows on 127.0.0.1 in the test's
// process.
import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveWorkflows, type ServedMcp } from '../../src/serve/index.js';
import Ship, { props, script } from '../serve/fixtures/ship.js';
import { folderRunHost } from '../../src/host/folder-run-host.js';
import { juneOnTerminal, nodesOf, onlyTrace, startJune, tempProject } from './cli-harness.js';

const TOKEN = 'terminal-run-token-0123456789';
/** The last of the prompt's choices: once it is on screen, the prompt takes keys. */
const CHOICES = 'a) Answer instead of the tool';

const caller = `import { Agent, Step, defineMCPServer } from 'june';
import { scriptedModel } from 'june/testing';

export default function Caller({ url, token }: { url: string; token: string }) {
  const Releases = defineMCPServer({ name: 'Releases', url, headers: { Authorization: \`Bearer \${token}\` } });
  return (
    <Agent model={scriptedModel({ steps: {} })}>
      <Releases />
      <Step id="go" prompt="Ship 1.2 through the release service" />
    </Agent>
  );
}
`;

describe('june run of a workflow that calls a served June workflow', () => {
  let project: ReturnType<typeof tempProject>;
  let server: ServedMcp;
  beforeEach(async () => {
    project = tempProject();
    server = await serveWorkflows({
      dir: join(project.dir, 'served-runs'),
      workflows: { ship: { component: Ship, props } },
      tokens: { 'release-agent': TOKEN },
      script,
    });
  });
  afterEach(async () => {
    await server.close();
    project.remove();
  });

  /** `june run` of the calling workflow, its model answered by a script: it calls ship once. */
  function runArgs(log: string): string[] {
    const workflow = project.write('caller.tsx', caller);
    const outer = project.write(
      'caller.script.json',
      JSON.stringify({
        steps: {
          go: [
            { toolCalls: [{ tool: 'ship', input: { version: '1.2', log } }] },
            { text: 'the release went out' },
          ],
        },
      }),
    );
    const props = JSON.stringify({ url: server.url, token: TOKEN });
    return ['run', workflow, '--script', outer, '--props', props];
  }

  it("prompts the served run's approval at the terminal; 'y' runs the served tool", async () => {
    const log = join(project.dir, 'ship.log');
    const { code, screen } = await juneOnTerminal(runArgs(log), project.dir, [
      { when: CHOICES, type: 'y\r' },
    ]);

    expect(code).toBe(0);
    expect(screen).toMatch(/ship.*needs approval.* in step .*go.*, with input:/);
    expect(screen).toContain('"env": "prod"');
    expect(screen).toContain('the release went out');
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toBe('1.2 prod\n');
    const [, asked] = nodesOf(onlyTrace(project.dir)).filter((node) => node.kind === 'tool');
    expect(asked).toMatchObject({ name: 'ship', input: { env: 'prod' }, status: 'succeeded' });
    expect(asked!.approval).toMatchObject({
      key: expect.stringMatching(/\/go#0\.0\/ship#0\.0$/),
      status: 'approved',
      source: 'terminal',
      answeredBy: userInfo().username,
    });
    const [served] = await server.host.list();
    const inner = await server.host.result(served!.runId);
    const innerCall = nodesOf(inner).find((node) => node.kind === 'tool')!;
    expect(innerCall.approval).toMatchObject({
      status: 'approved',
      source: 'mcp',
      answeredBy: 'release-agent',
    });
  });

  it("waits in the runs folder with the served tool and input; Studio's denial reaches the served run", async () => {
    const log = join(project.dir, 'ship.log');
    const running = startJune([...runArgs(log), '--approve', 'studio'], project.dir);
    const host = await folderRunHost({ dir: join(project.dir, '.june', 'runs') });
    try {
      const waiting = await waitFor(async () => {
        const [entry] = await host.list();
        if (!entry) return undefined;
        const [call] = (await host.decisions(entry.runId)).waiting;
        return call && { runId: entry.runId, call };
      });
      expect(waiting.call).toMatchObject({
        tool: 'ship',
        input: { env: 'prod' },
        step: 'go',
        key: `${waiting.runId}/go#0.0/ship#0.0`,
      });
      await host.answer(waiting.runId, {
        key: waiting.call.key,
        approved: false,
        reason: 'not this week',
        answeredBy: 'ops',
      });
      const done = await running.done;
      expect(done.code).toBe(0);
    } finally {
      await host.close();
    }
    expect(existsSync(log)).toBe(false);
    const [served] = await server.host.list();
    const inner = await server.host.result(served!.runId);
    expect(nodesOf(inner).find((node) => node.kind === 'tool')!.approval).toMatchObject({
      status: 'denied',
      reason: 'not this week',
      source: 'mcp',
    });
  });
});

/** Polls `probe` until it gives a value. */
async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('waited too long');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
