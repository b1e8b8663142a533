import { Output, stepCountIs, tool, type StopCondition } from 'ai';
import { Agent, JuneError, Step, Tool, run, type TraceNode } from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { streamModel } from '../helpers/mock-stream-model.js';

/** A tool that needs approval and counts its runs. */
function approvalTool(runs: string[]) {
  return tool({
    inputSchema: z.object({ n: z.number() }),
    needsApproval: true,
    execute: async ({ n }) => (runs.push(`ran ${n}`), `done ${n}`),
  });
}

/** A model that asks for `tool` on every turn, forever. */
function alwaysCalls(name: string) {
  return streamModel(
    Array.from({ length: 30 }, (_, i) => ({
      toolCalls: [{ id: `c${i + 1}`, name, input: { n: i + 1 } }],
    })),
  );
}

function allNodes(node: TraceNode): TraceNode[] {
  return [node, ...node.children.flatMap(allNodes)];
}

describe('stopWhen bounds the whole step, across approval continuations', () => {
  test('stepCountIs(2) with an approve-all policy: 2 model calls, then the step ends without asking again', async () => {
    const runs: string[] = [];
    const model = alwaysCalls('deploy');
    const handle = run(
      <Agent model={model} stopWhen={stepCountIs(2)}>
        <Tool name="deploy" value={approvalTool(runs)} />
        <Step id="s" prompt="Deploy" />
      </Agent>,
      { onApproval: () => true },
    );
    const { trace } = await handle.result;
    expect(model.doStreamCalls).toHaveLength(2);
    expect(runs).toEqual(['ran 1']);
    const tools = allNodes(trace.root).filter((node) => node.kind === 'tool');
    expect(tools.map((node) => [node.toolCallId, node.status, node.approval?.status])).toEqual([
      ['c1', 'succeeded', 'approved'],
      ['c2', 'aborted', 'withdrawn'],
    ]);
  });

  test('the default stopWhen (20 model calls) ends an approve-all loop too', async () => {
    const runs: string[] = [];
    const model = alwaysCalls('deploy');
    await run(
      <Agent model={model}>
        <Tool name="deploy" value={approvalTool(runs)} />
        <Step id="s" prompt="Deploy" />
      </Agent>,
      { onApproval: () => true },
    ).result;
    expect(model.doStreamCalls).toHaveLength(20);
    expect(runs).toHaveLength(19);
  });

  test('a custom StopCondition sees every model call of the step so far', async () => {
    const seen: number[] = [];
    const threeCalls: StopCondition<any> = ({ steps }) => {
      seen.push(steps.length);
      return steps.length >= 3;
    };
    const model = alwaysCalls('deploy');
    await run(
      <Agent model={model} stopWhen={threeCalls}>
        <Tool name="deploy" value={approvalTool([])} />
        <Step id="s" prompt="Deploy" />
      </Agent>,
      { onApproval: () => true },
    ).result;
    expect(model.doStreamCalls).toHaveLength(3);
    expect(seen).toEqual([1, 2, 3]);
  });

  test('a step with an output whose limit is reached while the model keeps calling tools: a ModelBehaviorError that says so', async () => {
    const search = tool({
      inputSchema: z.object({ n: z.number() }),
      execute: async ({ n }) => `result ${n}`,
    });
    const handle = run(
      <Agent model={alwaysCalls('search')} stopWhen={stepCountIs(2)}>
        <Tool name="search" value={search} />
        <Step
          id="s"
          prompt="Find it"
          output={Output.object({ schema: z.object({ answer: z.string() }) })}
        />
      </Agent>,
    );
    const error = await handle.result.catch((caught: unknown) => caught);
    expect(JuneError.isInstance(error) && error.name).toBe('ModelBehaviorError');
    expect(error).toMatchObject({ code: 'step-limit-reached', blame: 'model' });
    expect((error as Error).message).toBe(
      'june: step "s" has no answer: its stopWhen ended it after 2 model calls while the model was still calling tools (pending: search ("c2")). Raise the limit (e.g. stopWhen={stepCountIs(4)}), or ask in the prompt for fewer tool calls.',
    );
  });

  test('the same with the default limit and approvals: the message names stepCountIs(20)', async () => {
    const handle = run(
      <Agent model={alwaysCalls('deploy')}>
        <Tool name="deploy" value={approvalTool([])} />
        <Step
          id="s"
          prompt="Deploy"
          output={Output.object({ schema: z.object({ answer: z.string() }) })}
        />
      </Agent>,
      { onApproval: () => true },
    );
    const error = await handle.result.catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'step-limit-reached' });
    expect((error as Error).message).toContain(
      'its stopWhen (the default, stepCountIs(20)) ended it after 20 model calls',
    );
    expect((error as Error).message).toContain('pending: deploy ("c20")');
  });
});
