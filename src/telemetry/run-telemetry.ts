import { context, type Tracer } from '@opentelemetry/api';
import { runTracer } from './run-tracer.js';
import type { TelemetryContent } from './span-attributes.js';
import { SpanConsumer } from './span-consumer.js';

/**
 * What a run does with OpenTelemetry: with `tracer` (or a registered tracer provider), a
 * consumer that exports its spans as the run goes, the run span a child of the span active
 * now (when the run is started); without, `undefined`, so a run without OpenTelemetry spends
 * one global lookup on it, attaches nothing and records nothing.
 */
export function runTelemetry(options: {
  tracer: Tracer | false | undefined;
  content: TelemetryContent | undefined;
  /** The run is taken up again from its journal: its run span says so (`june.run.resumed`). */
  resumed?: boolean;
}): SpanConsumer | undefined {
  const tracer = runTracer(options.tracer);
  if (tracer === undefined) return undefined;
  return new SpanConsumer({
    tracer,
    parent: context.active(),
    content: options.content ?? {},
    ...(options.resumed ? { resumed: true } : {}),
  });
}
