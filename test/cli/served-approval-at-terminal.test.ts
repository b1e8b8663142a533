// `june run` on a terminal, of a workflow that calls a served June workflow through
// defineMCPServer: the served run's approval is prompted at the terminal like any of the
// run's own, and the answer runs the served tool. The server is serveWorkflows on 127.0.0.1
// in the test's process.
import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveWorkflows, type ServedMcp } from '../../src/serve/index.js';
import Ship, { props, script } from '../serve/fixtures/ship.js';
import { juneOnTerminal, nodesOf, onlyTrace, tempProject } from './cli-harness.js';

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

  it("prompts the served run's approval at the terminal; 'y' runs the served tool", async () => {
    const log = join(project.dir, 'ship.log');
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
    const { code, screen } = await juneOnTerminal(
      [
        'run',
        workflow,
        '--script',
        outer,
        '--props',
        JSON.stringify({ url: server.url, token: TOKEN }),
      ],
      project.dir,
      [{ when: CHOICES, type: 'y\r' }],
    );

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
});
