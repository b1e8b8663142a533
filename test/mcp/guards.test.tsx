// <Guard> over a subtree with a nested defineAgent and the tools of a real MCP server
// (@modelcontextprotocol/server-everything over stdio), in streaming and batch mode.
import {
  Agent,
  defineMCPServer,
  Guard,
  JuneError,
  Namespace,
  run,
  Step,
  Tool,
  type GuardSubject,
  type RunEvent,
  type TraceNode,
} from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { deploy, releasePolicy, Tester } from '../../examples/guards.js';
import { everythingCommand, everythingProcesses } from './support.js';

const Everything = defineMCPServer({ name: 'Everything', ...everythingCommand });

/** The example's release policy, and two rules about the server's tools. */
function policy(subject: GuardSubject) {
  const input = (subject.input ?? {}) as { message?: string; a?: number };
  if (subject.tool === 'everything_echo' && input.message?.includes('password'))
    return { action: 'reject' as const, reason: 'no passwords to the echo server' };
  if (subject.tool === 'everything_get-sum' && (input.a ?? 0) > 1000)
    return { action: 'escalate' as const, reason: 'big sums need a person' };
  return releasePolicy(subject);
}

function Release() {
  return (
    <Guard name="release-policy" check={policy}>
      <Agent model={scriptedModel({ steps: {} })} name="release">
        <Tester />
        <Namespace name="everything">
          <Everything />
        </Namespace>
        <Tool name="deploy" value={deploy} />
        <Step id="ship" prompt="Test, then ship." />
      </Agent>
    </Guard>
  );
}

/** Every tool call node of a trace, child runs included, in order. */
function toolCalls(node: TraceNode): TraceNode[] {
  const own = node.kind === 'tool' ? [node] : [];
  const child = (node.output as { trace?: { root: TraceNode } } | undefined)?.trace?.root;
  return [
    ...own,
    ...(child ? toolCalls(child) : []),
    ...node.children.flatMap((inner) => toolCalls(inner)),
  ];
}

const testedThen = (turns: unknown[]) =>
  scriptedModel({
    steps: {
      ship: [{ toolCalls: [{ tool: 'tester', input: { suite: 'unit' } }] }, ...turns] as never,
      'tester:answer': [
        { toolCalls: [{ tool: 'runTests', input: { suite: 'unit', database: 'test' } }] },
        { text: 'unit: 42 passed' },
      ],
    },
  });

describe.each([
  { mode: 'streaming', stream: true },
  { mode: 'batch', stream: false },
])('a guarded subtree with a defined agent and an MCP server ($mode)', ({ stream }) => {
  it('a rejected MCP call never reaches the server and the model reads why; an allowed one does', async () => {
    const model = testedThen([
      { toolCalls: [{ tool: 'everything_echo', input: { message: 'the password is 1234' } }] },
      { toolCalls: [{ tool: 'everything_echo', input: { message: 'release 1.2' } }] },
      { text: 'Echoed the release.' },
    ]);
    const result = await run(Release, { model, stream }).result;
    const echoes = toolCalls(result.trace.root).filter((n) => n.name === 'everything_echo');
    expect(echoes.map((node) => node.output)).toEqual([
      'june: the guard "release-policy" rejected this call: no passwords to the echo server',
      { content: [{ type: 'text', text: 'Echo: release 1.2' }], isError: false },
    ]);
    expect(echoes.map((node) => node.guards?.map((d) => d.action))).toEqual([
      ['reject'],
      ['allow'],
    ]);
    // the defined agent's own call was checked in its run, and allowed
    const tests = toolCalls(result.trace.root).find((node) => node.name === 'runTests')!;
    expect(tests.guards).toMatchObject([{ guard: 'release-policy', action: 'allow' }]);
    expect(result.trace.root.children[0]!.capabilities).toContainEqual({
      name: 'everything_echo',
      source: '<Everything> in <Namespace name="everything">',
      guards: ['<Guard name="release-policy">'],
    });
    expect(everythingProcesses()).toEqual([]);
    model.assertAllTurnsUsed();
  });

  it('an escalated MCP call waits in the inbox (a catch-all onApproval does not answer it) and runs once approved', async () => {
    const model = testedThen([
      { toolCalls: [{ tool: 'everything_get-sum', input: { a: 2000, b: 1 } }] },
      { text: 'The sum is 2001.' },
    ]);
    const asked: string[] = [];
    const handle = run(Release, {
      model,
      stream,
      onApproval: (request) => {
        asked.push(request.tool);
        return true;
      },
    });
    let request: Extract<RunEvent, { type: 'approval-request' }>['request'] | undefined;
    for await (const event of handle.events)
      if (event.type === 'approval-request') {
        request = event.request;
        break;
      }
    expect(request).toMatchObject({
      tool: 'everything_get-sum',
      guard: { name: 'release-policy', reason: 'big sums need a person' },
    });
    expect(handle.pendingApprovals.map((pending) => pending.tool)).toEqual(['everything_get-sum']);
    expect(asked).toEqual([]);
    handle.approve(request!.id, { answeredBy: 'ana' });
    const result = await handle.result;
    const sums = toolCalls(result.trace.root).filter((n) => n.name === 'everything_get-sum');
    expect(sums.map((node) => [node.output, node.approval?.status])).toEqual([
      [
        { content: [{ type: 'text', text: 'The sum of 2000 and 1 is 2001.' }], isError: false },
        'approved',
      ],
    ]);
    expect(everythingProcesses()).toEqual([]);
  });

  it("a call inside the defined agent's run trips the guard: the run fails with its declaration, and the server stops", async () => {
    const model = scriptedModel({
      steps: {
        ship: [{ toolCalls: [{ tool: 'tester', input: { suite: 'integration' } }] }],
        'tester:answer': [
          {
            toolCalls: [
              { tool: 'runTests', input: { suite: 'integration', database: 'production' } },
            ],
          },
        ],
      },
    });
    const handle = run(Release, { model, stream });
    const error = await handle.result.catch((e: unknown) => e);
    expect(JuneError.isInstance(error) && error.code).toBe('guard-tripped');
    expect((error as Error).message).toMatch(
      /^june: the guard "release-policy" \(<Guard name="release-policy"> at test\/mcp\/guards\.test\.tsx:\d+:\d+\) tripped on the call of "runTests" in step "tester:answer": tests never touch the production database\./,
    );
    expect(handle.trace().status).toBe('failed');
    expect(everythingProcesses()).toEqual([]);
  });
});
