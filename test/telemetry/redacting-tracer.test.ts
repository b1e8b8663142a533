// The tracer June hands the AI SDK's telemetry: whatever is written to its spans, at start or
// later, passes the run's redaction before the exporter sees it.
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { Redactor } from '../../src/redaction/redactor.js';
import { redactingTracer } from '../../src/telemetry/redacting-tracer.js';
import { memoryTracing } from './support.js';

const secret = 'tracer-secret-246810';
const redaction = {
  redactor: new Redactor({ values: [secret] }),
  hidden: (key: string) => key.startsWith('ai.request.headers.'),
};

beforeEach(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterEach(() => {
  context.disable();
});

test('attributes, events, links, status, names and exceptions are redacted; headers hidden', async () => {
  const { exporter, provider, tracer: inner } = memoryTracing();
  const tracer = redactingTracer(inner, redaction);
  const linked = inner.startSpan('linked');
  linked.end();
  const span = tracer.startSpan(`call ${secret}`, {
    attributes: { 'ai.prompt': `use ${secret}`, 'ai.request.headers.authorization': 'Bearer x' },
    links: [{ context: linked.spanContext(), attributes: { why: secret } }],
  });
  span
    .setAttribute('ai.response.text', `answer ${secret}`)
    .setAttributes({ 'ai.toolCall.args': [`a ${secret}`, 'b'], 'ai.usage.tokens': 3 })
    .addEvent(`event ${secret}`, { detail: secret })
    .addEvent('timed', Date.now())
    .setStatus({ code: SpanStatusCode.ERROR, message: `failed with ${secret}` })
    .updateName(`renamed ${secret}`);
  span.recordException(new Error(`thrown ${secret}`));
  span.end();
  await provider.forceFlush();

  const done = exporter.getFinishedSpans().find((s) => s.name.startsWith('renamed'))!;
  expect(done.name).toBe('renamed [redacted]');
  expect(done.attributes).toMatchObject({
    'ai.prompt': 'use [redacted]',
    'ai.request.headers.authorization': '[redacted]',
    'ai.response.text': 'answer [redacted]',
    'ai.toolCall.args': ['a [redacted]', 'b'],
    'ai.usage.tokens': 3,
  });
  expect(done.links[0]!.attributes).toEqual({ why: '[redacted]' });
  expect(done.events.map((event) => event.name)).toEqual([
    'event [redacted]',
    'timed',
    'exception',
  ]);
  expect(done.status.message).toBe('failed with [redacted]');
  const recorded = { ...done.attributes, events: done.events, links: done.links };
  expect(JSON.stringify({ recorded, name: done.name, status: done.status })).not.toContain(secret);
});

test('startActiveSpan makes the redacting span the active one, so what code in it writes is redacted', async () => {
  const { exporter, provider, tracer: inner } = memoryTracing();
  const tracer = redactingTracer(inner, redaction);
  const result = tracer.startActiveSpan('outer', { attributes: { a: secret } }, (span) => {
    trace.getActiveSpan()!.setAttribute('b', `inner ${secret}`);
    const child = tracer.startSpan('child');
    child.end();
    span.end();
    return 42;
  });
  expect(result).toBe(42);
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  const outer = spans.find((s) => s.name === 'outer')!;
  expect(outer.attributes).toEqual({ a: '[redacted]', b: 'inner [redacted]' });
  const child = spans.find((s) => s.name === 'child')!;
  expect(child.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
});
