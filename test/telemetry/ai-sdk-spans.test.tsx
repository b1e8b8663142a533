import { context, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { tool } from 'ai';
import { Agent, run, Step, Tool } from 'june';
import { scriptedModel } from 'june/testing';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTracing } from './support.js';

const lookup = tool({
  description: 'Look up a key',
  inputSchema: z.object({ key: z.string() }),
  execute: async ({ key }) => `value of ${key}`,
});

/** One step that calls `lookup` and answers, with the AI SDK's telemetry on (its spans go to `tracer`). */
function Lookup({ tracer }: { tracer: Tracer }) {
  return (
    <Agent
      model={scriptedModel(
        {
          steps: {
            find: [
              { toolCalls: [{ tool: 'lookup', input: { key: 'disk' }, id: 'c1' }] },
              { text: 'Found it.' },
            ],
          },
        },
        { name: 'finder-model' },
      )}
      name="finder"
      experimental_telemetry={{ isEnabled: true, functionId: 'finder', tracer }}
    >
      <Tool name="lookup" value={lookup} />
      <Step id="find" prompt="Find the disk" />
    </Agent>
  );
}

beforeEach(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterEach(() => {
  trace.disable();
  context.disable();
});

/** The span named `name` (the first one), and the name of its parent span. */
function withParent(spans: ReadableSpan[], name: string) {
  const span = spans.find((s) => s.name === name);
  if (!span) throw new Error(`no span "${name}" among ${spans.map((s) => s.name).join(', ')}`);
  const parent = spans.find((s) => s.spanContext().spanId === span.parentSpanContext?.spanId);
  return { span, parent: parent?.name };
}

describe.each([
  { mode: 'streaming', stream: true, call: 'ai.streamText' },
  { mode: 'batch', stream: false, call: 'ai.generateText' },
])('the AI SDK’s experimental_telemetry spans ($mode)', ({ stream, call }) => {
  test(`${call} nests under June's step span, in the run's trace`, async () => {
    const { exporter, provider } = memoryTracing();
    await run(<Lookup tracer={provider.getTracer('ai')} />, {
      tracer: provider.getTracer('june'),
      stream,
    }).result;
    const spans = exporter.getFinishedSpans();
    expect(withParent(spans, call).parent).toBe('step find');
    const modelCall = `${call}.${stream ? 'doStream' : 'doGenerate'}`;
    expect(withParent(spans, modelCall).parent).toBe(call);
    // AI SDK 7's spans (@ai-sdk/otel's LegacyOpenTelemetry) put a tool call under the model
    // call that asked for it; AI SDK 6 put it beside that call
    expect(withParent(spans, 'ai.toolCall').parent).toBe(modelCall);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    // June's own tree is as without them: the step under its agent, model calls under the step
    expect(withParent(spans, 'step find').parent).toBe('invoke_agent finder');
    expect(withParent(spans, 'chat finder-model').parent).toBe('step find');
  });
});
