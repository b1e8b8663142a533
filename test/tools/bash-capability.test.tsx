import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tool } from 'ai';
import { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import {
  Agent,
  RequireApproval,
  Step,
  Tool,
  defineCapabilities,
  inspect,
  run,
  type RunEvent,
  type JuneNode,
  type RunHandle,
  type TraceNode,
} from 'june';
import { scriptedModel, type ModelScript, type ScriptedModel } from 'june/testing';
import { Bash } from 'june/tools';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'june-bash-cap-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A script where step `sh` calls bash once with `command`, then answers "done". */
const oneCommand = (command: string): ModelScript => ({
  $comment: 'Test fixture: one bash call, then a final answer',
  steps: { sh: [{ toolCalls: [{ tool: 'bash', input: { command } }] }, { text: 'done' }] },
});

/**
 * Reads every event of a run while it goes, answering each approval request with `answer`
 * (so a request nobody expected is denied and recorded instead of hanging the test).
 */
async function drive(
  handle: RunHandle,
  answer: (event: Extract<RunEvent, { type: 'approval-request' }>) => boolean,
) {
  const events: RunEvent[] = [];
  for await (const event of handle.events) {
    events.push(event);
    if (event.type === 'approval-request') {
      if (answer(event)) handle.approve(event.request.id);
      else handle.deny(event.request.id, 'not in this test');
    }
  }
  return { events, result: await handle.result };
}

const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);

function findNodes(node: TraceNode, kind: TraceNode['kind']): TraceNode[] {
  return [
    ...(node.kind === kind ? [node] : []),
    ...node.children.flatMap((child) => findNodes(child, kind)),
  ];
}

/** An agent with one step `sh` and the given capabilities, on a scripted model. */
function workflow(model: ScriptedModel, capabilities: JuneNode) {
  return (
    <Agent model={model} name="shell">
      {capabilities}
      <Step id="sh" prompt="Run the command" />
    </Agent>
  );
}

describe('<Bash /> asks for approval by default', () => {
  it('shows the exact command in the approval request and runs it once approved', async () => {
    const dir = tempDir();
    const command = 'echo ran > marker.txt && cat marker.txt';
    const model = scriptedModel(oneCommand(command));
    const requests: unknown[] = [];
    const { events, result } = await drive(run(workflow(model, <Bash cwd={dir} />)), (event) => {
      requests.push(event.request);
      return true;
    });

    expect(requests).toEqual([
      {
        id: expect.any(String),
        tool: 'bash',
        input: { command },
        step: 'sh',
        toolCallId: 'call_sh_1_1',
        // the call's key: the run id, then the call's id at its step
        key: expect.stringMatching(/\/sh#call_sh_1_1$/),
      },
    ]);
    const [toolResult] = ofType(events, 'tool-result');
    expect(toolResult).toMatchObject({
      tool: 'bash',
      step: 'sh',
      output: { exitCode: 0, stdout: 'ran\n', stderr: '', timedOut: false },
    });
    expect(readFileSync(join(dir, 'marker.txt'), 'utf8')).toBe('ran\n');
    expect(result.steps.sh).toBe('done');
    model.assertAllTurnsUsed();
  });

  it('runs nothing when denied, and the model sees the denial', async () => {
    const dir = tempDir();
    const model = scriptedModel(oneCommand('echo ran > marker.txt'));
    const { events, result } = await drive(run(workflow(model, <Bash cwd={dir} />)), () => false);

    expect(ofType(events, 'approval-request')).toHaveLength(1);
    expect(ofType(events, 'tool-result')).toEqual([]);
    expect(existsSync(join(dir, 'marker.txt'))).toBe(false);
    const [toolNode] = findNodes(result.trace.root, 'tool');
    expect(toolNode).toMatchObject({
      name: 'bash',
      status: 'denied',
      approval: { status: 'denied', reason: 'not in this test' },
    });
    // The second model call got the denial as the bash call's result.
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain('execution-denied');
    model.assertAllTurnsUsed();
  });
});

describe('needsApproval and <RequireApproval>', () => {
  it('runs without asking when needsApproval={false}', async () => {
    const dir = tempDir();
    const model = scriptedModel(oneCommand('echo unattended'));
    const { events } = await drive(
      run(workflow(model, <Bash cwd={dir} needsApproval={false} />)),
      () => false,
    );

    expect(ofType(events, 'approval-request')).toEqual([]);
    expect(ofType(events, 'tool-result')[0]?.output).toMatchObject({
      exitCode: 0,
      stdout: 'unattended\n',
    });
  });

  it('asks again inside <RequireApproval>, even with needsApproval={false}', async () => {
    const dir = tempDir();
    const model = scriptedModel(oneCommand('echo approved > marker.txt'));
    const capabilities = (
      <RequireApproval>
        <Bash cwd={dir} needsApproval={false} />
      </RequireApproval>
    );
    const { events, result } = await drive(run(workflow(model, capabilities)), () => false);

    expect(ofType(events, 'approval-request').map((event) => event.request.input)).toEqual([
      { command: 'echo approved > marker.txt' },
    ]);
    expect(existsSync(join(dir, 'marker.txt'))).toBe(false);
    expect(result.trace.root.children[0]!.capabilities).toEqual([
      { name: 'bash', source: '<Bash> in <RequireApproval>' },
    ]);
  });
});

const readFile = tool({
  description: 'Read a file',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => `contents of ${path}`,
});
const writeFile = tool({
  description: 'Write a file',
  inputSchema: z.object({ path: z.string(), text: z.string() }),
  execute: async () => 'ok',
});

describe('provenance and secrets', () => {
  const dir = tempDir();
  const Coding = defineCapabilities(
    () => (
      <>
        <Tool name="readFile" value={readFile} />
        <Tool name="writeFile" value={writeFile} />
        <Bash cwd={dir} env={{ SECRET_TOKEN: 'xyz-secret' }} />
      </>
    ),
    { name: 'Coding' },
  );
  it('records bash as "<Bash> in <Coding>" on the agent node', async () => {
    const model = scriptedModel(oneCommand('true'));
    const result = await run(workflow(model, <Coding />), { onApproval: () => true }).result;

    const [agent] = findNodes(result.trace.root, 'agent');
    expect(agent!.capabilities).toEqual([
      { name: 'readFile', source: '<Tool name="readFile"> in <Coding>' },
      { name: 'writeFile', source: '<Tool name="writeFile"> in <Coding>' },
      { name: 'bash', source: '<Bash> in <Coding>' },
    ]);
  });

  it('keeps cwd and env out of the trace and of every event, after a call ran with them', async () => {
    const model = scriptedModel({
      $comment: 'Test fixture: bash checks the secret and the directory without writing either',
      steps: {
        sh: [
          { toolCalls: [{ tool: 'bash', input: { command: 'touch here.txt' } }] },
          {
            toolCalls: [
              {
                tool: 'bash',
                input: {
                  command:
                    'test "$SECRET_TOKEN" = "xyz-$(echo secret)" && test -f here.txt && echo token-and-dir-ok',
                },
              },
            ],
          },
          { text: 'done' },
        ],
      },
    });
    const { events, result } = await drive(run(workflow(model, <Coding />)), () => true);

    // The calls did run, in `dir`, with the secret.
    expect(existsSync(join(dir, 'here.txt'))).toBe(true);
    expect(
      ofType(events, 'tool-result').map((event) => (event.output as { stdout: string }).stdout),
    ).toEqual(['', 'token-and-dir-ok\n']);

    const secrets = [dir, realpathSync(dir), 'xyz-secret'];
    const trace = JSON.stringify(result.trace);
    for (const secret of secrets) {
      expect(trace).not.toContain(secret);
      for (const event of events) expect(JSON.stringify(event)).not.toContain(secret);
    }
    const report = JSON.stringify(
      await inspect(workflow(scriptedModel(oneCommand('true')), <Coding />)),
    );
    for (const secret of secrets) expect(report).not.toContain(secret);
  });
});

describe('inspect()', () => {
  const model = scriptedModel(oneCommand('true'));

  it('shows bash waiting for approval by default, and not with needsApproval={false}', async () => {
    const Asking = () => workflow(model, <Bash />);
    const Unattended = () => workflow(model, <Bash needsApproval={false} />);
    const Wrapped = () =>
      workflow(
        model,
        <RequireApproval>
          <Bash needsApproval={false} />
        </RequireApproval>,
      );

    expect((await inspect(<Asking />)).agents[0]!.tools).toEqual([
      { name: 'bash', needsApproval: true, source: '<Bash>' },
    ]);
    expect((await inspect(<Unattended />)).agents[0]!.tools).toEqual([
      { name: 'bash', needsApproval: false, source: '<Bash>' },
    ]);
    expect((await inspect(<Wrapped />)).agents[0]!.tools).toEqual([
      { name: 'bash', needsApproval: true, source: '<Bash> in <RequireApproval>' },
    ]);
  });

  it('uses the name prop as the tool name', async () => {
    const report = await inspect(workflow(model, <Bash name="shell" />));
    expect(report.agents[0]!.tools).toEqual([
      { name: 'shell', needsApproval: true, source: '<Bash>' },
    ]);
  });

  it('fails before any model call when an option is out of range', async () => {
    const counting = scriptedModel(oneCommand('true'));
    await expect(run(workflow(counting, <Bash timeoutMs={0} />)).result).rejects.toMatchObject({
      code: 'invalid-bash-option',
    });
    expect(counting.calls).toEqual([]);
  });
});
