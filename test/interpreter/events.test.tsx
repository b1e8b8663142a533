import { tool } from 'ai';
import { Agent, Step, Tool, run, type RunLogEvent } from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { streamModel } from '../helpers/mock-stream-model.js';

const weather = tool({
  description: 'Weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, tempC: 4 }),
});

async function collect(events: AsyncIterable<RunLogEvent>): Promise<RunLogEvent[]> {
  const out: RunLogEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('events', () => {
  test('text streams as several text-delta events before step-finish', async () => {
    const handle = run(
      <Agent model={streamModel([{ text: ['It ', 'is ', '4C ', 'in Oslo.'] }])}>
        <Step id="weather" prompt="?" />
      </Agent>,
    );
    const events = await collect(handle.events);
    const deltas = events.filter((event) => event.type === 'text-delta');
    expect(deltas.map((event) => event.delta)).toEqual(['It ', 'is ', '4C ', 'in Oslo.']);
    expect(deltas.every((event) => event.step === 'weather' && event.runId === handle.runId)).toBe(
      true,
    );
    const finish = events.findIndex((event) => event.type === 'step-finish');
    expect(events.findLastIndex((event) => event.type === 'text-delta')).toBeLessThan(finish);
    expect((await handle.result).output).toBe('It is 4C in Oslo.');
  });

  test('text-delta events arrive while the model is still streaming, not after the step', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = streamModel([{ text: 'unused' }]);
    model.doStream = async () => ({
      stream: new ReadableStream({
        async start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't' });
          controller.enqueue({ type: 'text-delta', id: 't', delta: 'first ' });
          await gate;
          controller.enqueue({ type: 'text-delta', id: 't', delta: 'second' });
          controller.enqueue({ type: 'text-end', id: 't' });
          controller.enqueue({
            type: 'finish',
            finishReason: { unified: 'stop', raw: 'stop' },
            usage: {
              inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
              outputTokens: { total: 1, text: 1, reasoning: undefined },
            },
          });
          controller.close();
        },
      }),
    });
    const handle = run(
      <Agent model={model}>
        <Step id="s" prompt="?" />
      </Agent>,
    );
    const seen: string[] = [];
    for await (const event of handle.events) {
      seen.push(event.type);
      if (event.type === 'text-delta' && event.delta === 'first ') {
        expect(seen).not.toContain('step-finish');
        release();
      }
    }
    expect((await handle.result).output).toBe('first second');
  });

  test('events come in order, with their fields and trace nodes: run, agent, step, model calls, deltas, tool call and result, finishes', async () => {
    const model = streamModel([
      {
        text: 'Checking.',
        toolCalls: [{ id: 'c1', name: 'weather', input: { city: 'Oslo' } }],
        usage: [10, 2],
      },
      { text: 'It is 4C.', usage: [20, 3] },
    ]);
    const handle = run(
      <Agent name="forecaster" model={model}>
        <Tool name="weather" value={weather} />
        <Step id="forecast" prompt="Weather in Oslo?" />
      </Agent>,
      { workflow: 'forecast-flow' },
    );
    const events = await collect(handle.events);
    const compact = events
      .map((event) => event.type)
      .filter((type, index, all) => type !== 'text-delta' || all[index - 1] !== 'text-delta');
    expect(compact).toEqual([
      'run-start',
      'agent-start',
      'step-start',
      'model-start',
      'text-delta',
      'tool-call',
      'tool-result',
      'model-finish',
      'model-start',
      'text-delta',
      'model-finish',
      'step-finish',
      'agent-finish',
      'run-finish',
    ]);

    const runId = handle.runId;
    const byType = <T extends RunLogEvent['type']>(type: T) =>
      events.find((event) => event.type === type) as Extract<RunLogEvent, { type: T }>;
    // every event names its trace node, that node's parent and its time
    const at = expect.any(Number);
    const runNode = byType('run-start').nodeId;
    const agentNode = byType('agent-start').nodeId;
    const stepNode = byType('step-start').nodeId;
    const toolNode = byType('tool-call').nodeId;
    expect(new Set([runNode, agentNode, stepNode, toolNode]).size).toBe(4);
    expect(byType('run-start')).toEqual({
      type: 'run-start',
      runId,
      workflow: 'forecast-flow',
      nodeId: runNode,
      at,
    });
    expect(byType('agent-start')).toEqual({
      type: 'agent-start',
      runId,
      agent: 'forecaster',
      model: 'mock-provider:mock-model-id',
      nodeId: agentNode,
      parentId: runNode,
      at,
      tools: ['weather'],
      capabilities: [expect.objectContaining({ name: 'weather', source: '<Tool name="weather">' })],
    });
    expect(byType('step-start')).toEqual({
      type: 'step-start',
      runId,
      step: 'forecast',
      agent: 'forecaster',
      prompt: 'Weather in Oslo?',
      nodeId: stepNode,
      parentId: agentNode,
      at,
    });
    expect(byType('model-start')).toEqual({
      type: 'model-start',
      runId,
      step: 'forecast',
      // the model's own provider id and model id (MockLanguageModelV4's defaults)
      provider: 'mock-provider',
      model: 'mock-model-id',
      nodeId: expect.any(String),
      parentId: stepNode,
      at,
    });
    expect(byType('tool-call')).toEqual({
      type: 'tool-call',
      runId,
      step: 'forecast',
      toolCallId: 'c1',
      tool: 'weather',
      input: { city: 'Oslo' },
      nodeId: toolNode,
      parentId: stepNode,
      at,
    });
    expect(byType('tool-result')).toEqual({
      type: 'tool-result',
      runId,
      step: 'forecast',
      toolCallId: 'c1',
      tool: 'weather',
      output: { city: 'Oslo', tempC: 4 },
      nodeId: toolNode,
      parentId: stepNode,
      at,
    });
    expect(byType('step-finish')).toMatchObject({
      type: 'step-finish',
      runId,
      step: 'forecast',
      status: 'succeeded',
      result: 'It is 4C.',
      usage: { inputTokens: 30, outputTokens: 5, totalTokens: 35 },
    });
    expect(byType('agent-finish')).toEqual({
      type: 'agent-finish',
      runId,
      agent: 'forecaster',
      status: 'succeeded',
      nodeId: agentNode,
      parentId: runNode,
      at,
    });
    expect(byType('run-finish')).toMatchObject({
      type: 'run-finish',
      runId,
      status: 'succeeded',
      usage: { totalTokens: 35 },
    });
    expect(JSON.parse(JSON.stringify(events))).toEqual(events);
  });

  test('a tool that throws gives a tool-error event and the model sees the error', async () => {
    const broken = tool({
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error('disk full');
      },
    });
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'save', input: {} }] },
      { text: 'Could not save.' },
    ]);
    const handle = run(
      <Agent model={model}>
        <Tool name="save" value={broken} />
        <Step id="s" prompt="save" />
      </Agent>,
    );
    const events = await collect(handle.events);
    expect(events.find((event) => event.type === 'tool-error')).toMatchObject({
      step: 's',
      toolCallId: 'c1',
      tool: 'save',
      error: { message: 'disk full' },
    });
    expect(model.doStreamCalls[1]!.prompt.at(-1)).toMatchObject({
      role: 'tool',
      content: [{ type: 'tool-result', output: { type: 'error-text', value: 'disk full' } }],
    });
    expect((await handle.result).output).toBe('Could not save.');
  });

  test('every reader of handle.events sees every event from the start; a late one gets the text deltas it missed joined', async () => {
    const handle = run(
      <Agent model={streamModel([{ text: 'a b c' }])}>
        <Step id="s" prompt="?" />
      </Agent>,
    );
    const [first, second] = await Promise.all([collect(handle.events), collect(handle.events)]);
    await handle.result;
    const late = await collect(handle.events);
    expect(second).toEqual(first);
    expect(
      first.filter((event) => event.type === 'text-delta').map((event) => event.delta),
    ).toEqual(['a ', 'b ', 'c']);
    const joined = first
      .filter((event, i) => event.type !== 'text-delta' || first[i - 1]?.type !== 'text-delta')
      .map((event) => (event.type === 'text-delta' ? { ...event, delta: 'a b c' } : event));
    expect(late).toEqual(joined);
    expect(first.at(-1)?.type).toBe('run-finish');
  });

  test('a failed run ends with step, agent and run finish events, status failed, the error on run-finish', async () => {
    const handle = run(
      <Agent model={streamModel([{ error: new Error('provider down') }])}>
        <Step id="s" prompt="?" />
      </Agent>,
    );
    const events = await collect(handle.events);
    await expect(handle.result).rejects.toThrow('provider down');
    expect(events.map((event) => event.type)).toEqual([
      'run-start',
      'agent-start',
      'step-start',
      'step-finish',
      'agent-finish',
      'run-finish',
    ]);
    expect(events.find((event) => event.type === 'step-finish')).toMatchObject({
      status: 'failed',
    });
    expect(events.find((event) => event.type === 'agent-finish')).toMatchObject({
      status: 'failed',
    });
    expect(events.at(-1)).toMatchObject({
      type: 'run-finish',
      status: 'failed',
      error: { code: 'model-call-failed' },
    });
  });
});

describe('concurrent runs', () => {
  test('two runs at once never see each other’s events, approvals or results', async () => {
    const slowTool = (label: string) =>
      tool({
        inputSchema: z.object({}),
        needsApproval: true,
        execute: async () => `${label} done`,
      });
    const makeModel = (label: string) =>
      streamModel([
        {
          text: `${label} starting`,
          toolCalls: [{ id: `${label}-call`, name: 'act', input: {} }],
          usage: label === 'A' ? [1, 1] : [100, 100],
        },
        (options) => ({
          text: `${label} finished after ${JSON.stringify(options.prompt.at(-1))}`,
          usage: label === 'A' ? [2, 2] : [200, 200],
        }),
      ]);
    const workflow = (label: string) => (
      <Agent name={`agent-${label}`} model={makeModel(label)}>
        <Tool name="act" value={slowTool(label)} />
        <Step id="work" prompt={`run ${label}`} />
      </Agent>
    );
    const a = run(workflow('A'));
    const b = run(workflow('B'));

    const requestOf = async (handle: typeof a) => {
      for await (const event of handle.events)
        if (event.type === 'approval-request') return event.request;
      throw new Error('no approval request');
    };
    const [requestA, requestB] = await Promise.all([requestOf(a), requestOf(b)]);
    expect(a.pendingApprovals.map((request) => request.id)).toEqual([requestA.id]);
    expect(b.pendingApprovals.map((request) => request.id)).toEqual([requestB.id]);
    // one run's handle cannot answer the other's request
    expect(() => a.approve(requestB.id)).toThrow(
      expect.objectContaining({ code: 'approval-unknown' }),
    );
    b.deny(requestB.id, 'not B');
    a.approve(requestA.id);

    const [resultA, resultB] = await Promise.all([a.result, b.result]);
    const [eventsA, eventsB] = await Promise.all([collect(a.events), collect(b.events)]);
    expect(eventsA.every((event) => event.runId === a.runId)).toBe(true);
    expect(eventsB.every((event) => event.runId === b.runId)).toBe(true);
    expect(JSON.stringify(eventsA)).not.toMatch(/\bB\b|agent-B/);
    expect(JSON.stringify(eventsB)).not.toMatch(/\bA\b|agent-A/);
    expect(resultA.steps.work).toContain('A finished');
    expect(resultA.steps.work).toContain('A done');
    expect(resultB.steps.work).toContain('execution-denied');
    expect(resultA.usage.totalTokens).toBe(6);
    expect(resultB.usage.totalTokens).toBe(600);
  });
});
