import { tool } from 'ai';
import { Agent, RequireApproval, Step, Tool, run, type Trace, type TraceNode } from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { streamModel } from '../helpers/mock-stream-model.js';

function allNodes(node: TraceNode): TraceNode[] {
  return [node, ...node.children.flatMap(allNodes)];
}

const lookup = tool({
  description: 'Look a word up',
  inputSchema: z.object({ word: z.string() }),
  execute: async ({ word }) => ({ word, meaning: 'a fjord' }),
});
const publish = tool({
  inputSchema: z.object({ text: z.string() }),
  execute: async () => 'published',
});

describe('the trace', () => {
  test('a finished run’s trace: plain JSON, every node settled, the tree of run, agents, steps, model calls and tools', async () => {
    const model = streamModel([
      {
        text: 'Looking up.',
        toolCalls: [{ id: 'c1', name: 'lookup', input: { word: 'fjord' } }],
        usage: [10, 4],
      },
      { text: 'A fjord is a sea inlet.', usage: [20, 6] },
    ]);
    const childModel = streamModel([{ text: 'Published.', usage: [5, 1] }]);
    const handle = run(
      <Agent name="writer" model={model} instructions="be brief" temperature={0}>
        <Tool name="lookup" value={lookup} />
        <Step id="define" prompt="Define fjord" />
        <Agent name="publisher" model={childModel} tools={{ publish }}>
          <Step id="publish" prompt="Publish it" />
        </Agent>
      </Agent>,
      { runId: 'run-1', workflow: 'glossary' },
    );
    const { trace } = await handle.result;

    expect(JSON.parse(JSON.stringify(trace))).toEqual(trace);
    expect(handle.trace()).toEqual(trace);
    expect(trace).toMatchObject({
      version: 1,
      runId: 'run-1',
      workflow: 'glossary',
      status: 'succeeded',
      startedAt: expect.any(String),
      endedAt: expect.any(String),
    });
    expect(Date.parse(trace.endedAt!)).toBeGreaterThanOrEqual(Date.parse(trace.startedAt));

    const nodes = allNodes(trace.root);
    for (const node of nodes) {
      expect(node.status).toBe('succeeded');
      expect(node.endedAt).toEqual(expect.any(String));
      expect(node.durationMs).toBeGreaterThanOrEqual(0);
    }
    const shape = (node: TraceNode): unknown => [node.kind, node.name, node.children.map(shape)];
    expect(shape(trace.root)).toEqual([
      'run',
      'glossary',
      [
        [
          'agent',
          'writer',
          [
            [
              'step',
              'define',
              [
                ['model', 'mock-model-id', []],
                ['tool', 'lookup', []],
                ['model', 'mock-model-id', []],
              ],
            ],
            ['agent', 'publisher', [['step', 'publish', [['model', 'mock-model-id', []]]]]],
          ],
        ],
      ],
    ]);

    const writer = trace.root.children[0]!;
    expect(writer.model).toBe('mock-provider:mock-model-id');
    // declared capabilities are listed; an agent with only the tools prop has no capabilities list
    expect(writer.capabilities).toEqual([
      expect.objectContaining({ name: 'lookup', source: '<Tool name="lookup">' }),
    ]);
    const publisher = writer.children[1]!;
    expect(publisher).not.toHaveProperty('capabilities');

    const step = writer.children[0]!;
    expect(step).toMatchObject({
      step: 'define',
      prompt: 'Define fjord',
      result: 'A fjord is a sea inlet.',
      usage: { inputTokens: 30, outputTokens: 10, totalTokens: 40 },
    });
    expect(step.messages?.map((message) => (message as { role: string }).role)).toEqual([
      'assistant',
      'tool',
      'assistant',
    ]);
    const [firstCall, toolCall] = step.children;
    expect(firstCall).toMatchObject({
      kind: 'model',
      finishReason: 'tool-calls',
      usage: { inputTokens: 10, outputTokens: 4 },
    });
    expect(toolCall).toMatchObject({
      kind: 'tool',
      toolCallId: 'c1',
      input: { word: 'fjord' },
      output: { word: 'fjord', meaning: 'a fjord' },
    });
    expect(trace.root.usage).toMatchObject({ inputTokens: 35, outputTokens: 11, totalTokens: 46 });

    // no functions, tool objects, props or settings leak into the trace
    const text = JSON.stringify(trace);
    expect(text).not.toContain('execute');
    expect(text).not.toContain('inputSchema');
    expect(text).not.toContain('temperature');
    expect(text).not.toContain('be brief');
  });

  test('a trace mid-run shows what is running, and handle.trace() is a snapshot', async () => {
    const gated = tool({
      inputSchema: z.object({}),
      needsApproval: true,
      execute: async () => 'ok',
    });
    const handle = run(
      <Agent
        model={streamModel([
          { toolCalls: [{ id: 'c1', name: 'gated', input: {} }] },
          { text: 'done' },
        ])}
      >
        <RequireApproval>
          <Tool name="gated" value={gated} />
        </RequireApproval>
        <Step id="s" prompt="?" />
      </Agent>,
    );
    let id = '';
    for await (const event of handle.events) {
      if (event.type === 'approval-request') {
        id = event.request.id;
        break;
      }
    }
    const snapshot: Trace = handle.trace();
    expect(snapshot.status).toBe('running');
    expect(snapshot).not.toHaveProperty('endedAt');
    const waiting = allNodes(snapshot.root).find((node) => node.kind === 'tool')!;
    expect(waiting).toMatchObject({ status: 'waiting', approval: { id, status: 'pending' } });
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);

    handle.approve(id);
    const { trace } = await handle.result;
    expect(allNodes(trace.root).every((node) => node.status === 'succeeded')).toBe(true);
    // the snapshot taken before did not change
    expect(snapshot.status).toBe('running');
    expect(allNodes(snapshot.root).find((node) => node.kind === 'tool')!.status).toBe('waiting');
  });

  test('an agent whose capabilities mix declarations and the tools prop lists both, with their sources', async () => {
    const { trace } = await run(
      <Agent model={streamModel([{ text: 'ok' }])} tools={{ publish }}>
        <Tool name="lookup" value={lookup} />
        <Step id="s" prompt="?" />
      </Agent>,
    ).result;
    expect(trace.root.children[0]!.capabilities?.map((entry) => entry.name).sort()).toEqual([
      'lookup',
      'publish',
    ]);
  });
});
