// June's spans against the OpenTelemetry GenAI semantic conventions: span kinds (a call to a
// remote model is CLIENT, everything in the process INTERNAL), span names, the required
// `gen_ai.provider.name`, and the model calls' input and output messages when content
// recording is on, streaming and in batch mode.
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { tool } from 'ai';
import { Agent, Step, Tool, run } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { scriptModel } from '../helpers/mock-stream-model.js';
import { memoryTracing } from './support.js';

const weather = tool({
  description: 'The weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => `4C in ${city}`,
});

/** A mock model that presents itself as OpenAI's Responses provider. */
function openaiLikeModel() {
  const model = scriptModel([
    { toolCalls: [{ id: 'c1', name: 'weather', input: { city: 'Oslo' } }], usage: [12, 3] },
    { text: 'It is 4C in Oslo.', usage: [20, 6] },
    { text: 'Take a coat.', usage: [30, 4] },
  ]);
  Object.assign(model, { provider: 'openai.responses', modelId: 'gpt-5-mini' });
  return model;
}

async function exported(options: {
  stream: boolean;
  telemetry?: { recordInputs?: boolean; recordOutputs?: boolean };
  model?: Parameters<typeof Agent>[0]['model'];
}) {
  const { exporter, provider, tracer } = memoryTracing();
  await run(
    <Agent name="forecaster" model={options.model ?? openaiLikeModel()}>
      <Tool name="weather" value={weather} />
      <Step id="ask" prompt="Weather in Oslo?" />
      <Step id="advise" prompt="What should I wear?" />
    </Agent>,
    {
      tracer,
      stream: options.stream,
      ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    },
  ).result;
  await provider.forceFlush();
  return exporter.getFinishedSpans();
}

const byOperation = (spans: ReadableSpan[], operation: string) =>
  spans.filter((span) => span.attributes['gen_ai.operation.name'] === operation);

describe.each([
  { mode: 'streaming', stream: true },
  { mode: 'batch mode', stream: false },
])('GenAI conventions, $mode', ({ stream }) => {
  test('span kinds: model calls CLIENT; agents, tools, steps and the run INTERNAL', async () => {
    const spans = await exported({ stream });
    const chats = byOperation(spans, 'chat');
    expect(chats).toHaveLength(3);
    for (const span of chats) expect(span.kind).toBe(SpanKind.CLIENT);
    for (const span of spans.filter((s) => !chats.includes(s)))
      expect({ name: span.name, kind: span.kind }).toEqual({
        name: span.name,
        kind: SpanKind.INTERNAL,
      });
    expect(byOperation(spans, 'execute_tool').map((s) => s.name)).toEqual(['execute_tool weather']);
    expect(byOperation(spans, 'invoke_agent').map((s) => s.name)).toEqual([
      'invoke_agent forecaster',
    ]);
  });

  test('model spans: chat {model}, gen_ai.provider.name, request and response model, usage, finish reasons', async () => {
    const spans = await exported({ stream });
    const [first] = byOperation(spans, 'chat');
    expect(first!.name).toBe('chat gpt-5-mini');
    expect(first!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-5-mini',
      'gen_ai.response.model': 'mock-model-id',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 3,
      'gen_ai.response.finish_reasons': ['tool_call'],
    });
    const [agent] = byOperation(spans, 'invoke_agent');
    expect(agent!.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.agent.name': 'forecaster',
      'gen_ai.request.model': 'gpt-5-mini',
    });
    const [toolSpan] = byOperation(spans, 'execute_tool');
    expect(toolSpan!.attributes).toMatchObject({
      'gen_ai.tool.name': 'weather',
      'gen_ai.tool.call.id': 'c1',
      'gen_ai.tool.type': 'function',
    });
  });

  test('without content recording, no messages, arguments or results', async () => {
    const spans = await exported({ stream });
    const keys = spans.flatMap((span) => Object.keys(span.attributes));
    for (const key of [
      'gen_ai.input.messages',
      'gen_ai.output.messages',
      'gen_ai.tool.call.arguments',
      'gen_ai.tool.call.result',
    ])
      expect(keys).not.toContain(key);
  });

  test('with content recording, each model call carries the conversation it was sent and its answer', async () => {
    const spans = await exported({
      stream,
      telemetry: { recordInputs: true, recordOutputs: true },
    });
    const chats = byOperation(spans, 'chat');
    const messages = (span: ReadableSpan, key: string) =>
      JSON.parse(span.attributes[key] as string) as unknown;
    expect(messages(chats[0]!, 'gen_ai.input.messages')).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Weather in Oslo?' }] },
    ]);
    expect(messages(chats[0]!, 'gen_ai.output.messages')).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'c1', name: 'weather', arguments: { city: 'Oslo' } }],
        finish_reason: 'tool_call',
      },
    ]);
    expect(messages(chats[1]!, 'gen_ai.input.messages')).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Weather in Oslo?' }] },
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'c1', name: 'weather', arguments: { city: 'Oslo' } }],
      },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: '4C in Oslo' }] },
    ]);
    expect(messages(chats[1]!, 'gen_ai.output.messages')).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'text', content: 'It is 4C in Oslo.' }],
        finish_reason: 'stop',
      },
    ]);
    // the second step's call is sent the first step's whole conversation, then its prompt
    expect(messages(chats[2]!, 'gen_ai.input.messages')).toEqual([
      ...(messages(chats[1]!, 'gen_ai.input.messages') as unknown[]),
      { role: 'assistant', parts: [{ type: 'text', content: 'It is 4C in Oslo.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'What should I wear?' }] },
    ]);
  });
});

test("June's scripted model answers in the process: its spans are INTERNAL, provider june", async () => {
  const model = scriptedModel({
    steps: {
      ask: [{ text: 'Sunny.' }],
      advise: [{ text: 'A hat.' }],
    },
  });
  const spans = await exported({ stream: true, model });
  const chats = byOperation(spans, 'chat');
  expect(chats.map((span) => [span.kind, span.attributes['gen_ai.provider.name']])).toEqual([
    [SpanKind.INTERNAL, 'june'],
    [SpanKind.INTERNAL, 'june'],
  ]);
});
