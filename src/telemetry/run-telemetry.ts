import { context, type Tracer } from '@opentelemetry/api';
import type { Trace } from '../trace/trace-node.js';
import { exportTrace } from './export-trace.js';
import { runTracer } from './run-tracer.js';
import type { TelemetryContent } from './span-attributes.js';

/**
 * What a run does with OpenTelemetry: with `tracer` (or a registered tracer provider), a
 * function that exports its settled trace as spans, the run span a child of the span active
 * when the run started; without, `undefined`, so a run without OpenTelemetry spends one
 * global lookup on it and records nothing.
 */
export function runTelemetry(options: {
  tracer: Tracer | false | undefined;
  content: TelemetryContent | undefined;
  runId: string;
}): ((trace: Trace) => void) | undefined {
  const tracer = runTracer(options.tracer);
  if (tracer === undefined) return undefined;
  const parent = context.active();
  return (trace) =>
    exportTrace(trace, {
      tracer,
      parent,
      runId: options.runId,
      content: options.content ?? {},
    });
}
