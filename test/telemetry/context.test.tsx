import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { tool } from 'ai';
import { Agent, memoryJournalStore, run, Step, Tool } from 'june';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { streamModel } from '../helpers/mock-stream-model.js';
import { runTracer } from '../../src/telemetry/run-tracer.js';
import { memoryTracing } from './support.js';

const lookup = tool({
  description: 'Look up a key',
  inputSchema: z.object({ key: z.string() }),
  execute: async ({ key }) => `value of ${key}`,
});

function Lookup({ telemetry = false }: { telemetry?: boolean }) {
  return (
    <Agent
      model={streamModel([
        { toolCalls: [{ id: 'c1', name: 'lookup', input: { key: 'disk' } }] },
        { text: 'Found it.' },
      ])}
      name="finder"
      {...(telemetry ? { experimental_telemetry: { isEnabled: true } } : {})}
    >
      <Tool name="lookup" value={lookup} />
      <Step id="find" prompt="Find the disk" />
    </Agent>
  );
}

let tracing: ReturnType<typeof memoryTracing>;
beforeEach(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  tracing = memoryTracing();
});
afterEach(() => {
  trace.disable();
  context.disable();
});

const finished = async () => {
  await tracing.provider.forceFlush();
  return tracing.exporter.getFinishedSpans();
};

test('with no tracer provider registered, a run has no tracer; a registered one is used, unless tracer: false', async () => {
  expect(runTracer(undefined)).toBeUndefined();
  await run(<Lookup />).result;

  trace.setGlobalTracerProvider(tracing.provider);
  expect(runTracer(undefined)).toBeDefined();
  expect(runTracer(false)).toBeUndefined();
  await run(<Lookup />).result;
  const spans = await finished();
  expect(spans.map((span) => span.name)).toContain('run Lookup');
  expect(spans.every((span) => span.instrumentationScope.name === 'june')).toBe(true);

  tracing.exporter.reset();
  await run(<Lookup />, { tracer: false }).result;
  expect(await finished()).toEqual([]);
});

test('a run started inside an active span (an HTTP request’s) is its child, in its trace', async () => {
  const tracer = tracing.provider.getTracer('server');
  await tracer.startActiveSpan('GET /lookup', async (request) => {
    await run(<Lookup />, { tracer: tracing.provider.getTracer('june') }).result;
    request.end();
  });
  const spans = await finished();
  const request = spans.find((span) => span.name === 'GET /lookup')!;
  const root = spans.find((span) => span.name === 'run Lookup')!;
  expect(root.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
  expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
});

test('a resumed run’s spans carry the same run id', async () => {
  const journal = memoryJournalStore();
  const first = run(<Lookup />, { journal, tracer: tracing.provider.getTracer('june') });
  await first.result;
  await run(<Lookup />, {
    journal,
    resume: first.runId,
    tracer: tracing.provider.getTracer('june'),
  }).result.catch(() => {});
  const roots = (await finished()).filter((span) => span.name === 'run Lookup');
  expect(roots.map((span) => span.attributes['june.run.id'])).toEqual([first.runId, first.runId]);
});
