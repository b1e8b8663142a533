// A tool call's trace node opens when its execution starts (the AI SDK's onToolExecutionStart)
// or when the step reads its tool-call part, whichever comes first; which one comes first
// depends on the Node version's stream scheduling, the trace does not.
import { tool } from 'ai';
import { Agent, run, Step, Tool, type RunLogEvent, type TraceNode } from 'june';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRunServices } from '../../src/interpreter/run-services.js';
import { ToolNodes } from '../../src/interpreter/tool-nodes.js';
import { streamModel } from '../helpers/mock-stream-model.js';

function stepNodes() {
  const events: RunLogEvent[] = [];
  const { log } = createRunServices({
    runId: 'r1',
    consumers: [{ event: (event) => events.push(event) }],
  });
  const calls = () => events.filter((event) => event.type === 'tool-call');
  return { nodes: new ToolNodes(log, 'r1', 'go', log.nodeId(undefined, 'step:go')), calls };
}

describe('a tool call node', () => {
  it('opens once, whichever comes first: the execution or the tool-call part', () => {
    const first = stepNodes();
    const started = first.nodes.started('c1', 'lookup', { key: 'a' });
    expect(first.calls()).toHaveLength(1);
    expect(first.nodes.called('c1', 'lookup', { key: 'a' })).toEqual(started);
    expect(first.calls()).toHaveLength(1);

    const second = stepNodes();
    const called = second.nodes.called('c1', 'lookup', { key: 'a' });
    expect(second.nodes.started('c1', 'lookup', { key: 'a' })).toEqual(called);
    expect(second.calls()).toMatchObject([
      { tool: 'lookup', toolCallId: 'c1', input: { key: 'a' } },
    ]);
  });

  it('of a repeated id is a new node once the earlier call closed; a composite takes the started one', () => {
    const { nodes, calls } = stepNodes();
    const one = nodes.called('c1', 'lookup', {});
    nodes.started('c1', 'lookup', {});
    nodes.closed('c1', one.nodeId);
    const two = nodes.started('c1', 'lookup', {});
    expect(two.nodeId).not.toBe(one.nodeId);
    expect(nodes.called('c1', 'lookup', {})).toEqual(two);
    const research = nodes.started('c2', 'research', { q: 'x' });
    expect(nodes.claim('c2', 'research', { q: 'x' })).toEqual(research);
    expect(calls()).toHaveLength(3);
  });
});

describe('a tool that ran', () => {
  it('has its node in the trace when the run is aborted as its execution starts', async () => {
    let abortRun = () => {};
    const stops = tool({
      description: 'Aborts the run as it starts',
      inputSchema: z.object({}),
      execute: async (_input, { abortSignal }) => {
        abortRun();
        if (!abortSignal?.aborted)
          await new Promise((resolve) => abortSignal?.addEventListener('abort', resolve));
        return 'stopped';
      },
    });
    const handle = run(
      <Agent model={streamModel([{ toolCalls: [{ id: 'c1', name: 'stops', input: {} }] }])}>
        <Tool name="stops" value={stops} />
        <Step id="work" prompt="Start" />
      </Agent>,
    );
    abortRun = () => handle.abort('stop now');
    await handle.result.catch(() => {});
    const tools = (function all(node: TraceNode): TraceNode[] {
      return [...(node.kind === 'tool' ? [node] : []), ...node.children.flatMap(all)];
    })(handle.trace().root);
    expect(tools).toMatchObject([{ name: 'stops', status: 'aborted' }]);
  });
});
