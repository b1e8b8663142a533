import { tool } from 'ai';
import {
  Agent,
  Step,
  Tool,
  defineAgent,
  run,
  type RunEvent,
  type RunHandle,
  type TraceNode,
} from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { streamModel } from '../helpers/mock-stream-model.js';

/** A tool that runs until its call is aborted, and says when it started. */
function hangingTool() {
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const value = tool({
    inputSchema: z.object({}),
    execute: (_input, { abortSignal }) =>
      new Promise<string>((_resolve, reject) => {
        started();
        abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true });
      }),
  });
  return { value, running };
}

function allNodes(node: TraceNode): TraceNode[] {
  return [node, ...node.children.flatMap(allNodes)];
}

async function abortedRun(handle: RunHandle, running: Promise<void>) {
  await running;
  handle.abort('stop');
  const error = (await handle.result.catch((caught: unknown) => caught)) as Error & {
    trace: { root: TraceNode };
  };
  const events: RunEvent[] = [];
  for await (const event of handle.events) events.push(event);
  return { error, events, root: error.trace.root };
}

describe('usage survives an abort', () => {
  test('a finished model call (100 in, 10 out) keeps its tokens on the run, the step and the model node when the run is aborted during the tool it asked for', async () => {
    const slow = hangingTool();
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'slow', input: {} }], usage: [100, 10] },
    ]);
    const handle = run(
      <Agent model={model}>
        <Tool name="slow" value={slow.value} />
        <Step id="s" prompt="Go" />
      </Agent>,
    );
    const { error, events, root } = await abortedRun(handle, slow.running);
    expect(error).toMatchObject({ code: 'run-aborted' });
    expect(root.usage).toMatchObject({ inputTokens: 100, outputTokens: 10, totalTokens: 110 });
    const step = allNodes(root).find((node) => node.kind === 'step')!;
    expect(step.usage).toMatchObject({ totalTokens: 110 });
    expect(allNodes(root).find((node) => node.kind === 'model')!.usage).toMatchObject({
      totalTokens: 110,
    });
    expect(events.find((event) => event.type === 'step-finish')).toMatchObject({
      status: 'aborted',
      usage: { totalTokens: 110 },
    });
    expect(events.at(-1)).toMatchObject({
      type: 'run-finish',
      status: 'aborted',
      usage: { totalTokens: 110 },
    });
  });

  test('each finished model call keeps its own tokens and cost when the run is aborted during the tool the second one asked for', async () => {
    const slow = hangingTool();
    const quick = tool({ inputSchema: z.object({}), execute: async () => 'done' });
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'quick', input: {} }], usage: [100, 10] },
      { toolCalls: [{ id: 'c2', name: 'slow', input: {} }], usage: [200, 20] },
    ]);
    const handle = run(
      <Agent model={model}>
        <Tool name="quick" value={quick} />
        <Tool name="slow" value={slow.value} />
        <Step id="s" prompt="Go" />
      </Agent>,
      { prices: { 'mock-model-id': { inputPerMTok: 1, outputPerMTok: 10 } } },
    );
    const { root } = await abortedRun(handle, slow.running);
    const calls = allNodes(root).filter((node) => node.kind === 'model');
    expect(calls.map((call) => call.usage?.totalTokens)).toEqual([110, 220]);
    // the second call's cost is known although its model-finish never came
    expect(calls.map((call) => call.costUsd)).toEqual([
      expect.closeTo(200e-6, 12),
      expect.closeTo(400e-6, 12),
    ]);
    expect(root.usage).toMatchObject({ totalTokens: 330 });
  });

  test('the same inside a defined agent aborted through its caller: the child run, its step and the calling run keep the tokens', async () => {
    const slow = hangingTool();
    const model = streamModel([
      { toolCalls: [{ id: 'outer', name: 'helper', input: { task: 'x' } }], usage: [7, 3] },
      { toolCalls: [{ id: 'inner', name: 'slow', input: {} }], usage: [100, 10] },
    ]);
    const Helper = defineAgent({
      name: 'helper',
      model,
      input: z.object({ task: z.string() }),
      prompt: ({ task }) => task,
      capabilities: () => <Tool name="slow" value={slow.value} />,
    });
    const handle = run(
      <Agent model={model}>
        <Helper />
        <Step id="s" prompt="Go" />
      </Agent>,
    );
    const { root } = await abortedRun(handle, slow.running);
    expect(root.usage).toMatchObject({ inputTokens: 107, outputTokens: 13, totalTokens: 120 });
    const childRun = allNodes(root).find((node) => node.kind === 'run' && node !== root);
    const child =
      childRun ??
      (
        allNodes(root).find((node) => node.name === 'helper' && node.kind === 'tool')!.output as {
          trace: { root: TraceNode };
        }
      ).trace.root;
    expect(child.usage).toMatchObject({ totalTokens: 110 });
    expect(allNodes(child).find((node) => node.kind === 'step')!.usage).toMatchObject({
      totalTokens: 110,
    });
  });
});
