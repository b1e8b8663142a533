import {
  context,
  trace,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';
import {
  RedactingSpan,
  redactAttributes,
  redactLinks,
  type SpanRedaction,
} from './redacting-span.js';

/**
 * A tracer whose spans pass everything written to them through a run's redaction (see
 * {@link RedactingSpan}), the attributes and links a span starts with included. It is what
 * June hands the AI SDK's telemetry integration in place of the tracer it would use, so the
 * SDK's spans keep the run's secrets out as June's own spans do.
 *
 * @example
 * ```ts
 * const tracer = redactingTracer(trace.getTracer('ai'), { redactor });
 * tracer.startSpan('ai.streamText', { attributes: { 'ai.prompt': 'token sk-live-123456' } }); // 'token [redacted]'
 * ```
 */
export function redactingTracer(tracer: Tracer, redaction: SpanRedaction): Tracer {
  const startSpan = (name: string, options?: SpanOptions, parent?: Context): Span =>
    new RedactingSpan(
      tracer.startSpan(redaction.redactor.text(name), redactOptions(redaction, options), parent),
      redaction,
    );
  function startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    ...rest: [F] | [SpanOptions, F] | [SpanOptions, Context, F]
  ): ReturnType<F> {
    const fn = rest[rest.length - 1] as F;
    const options = rest.length > 1 ? (rest[0] as SpanOptions) : undefined;
    const parent = rest.length > 2 ? (rest[1] as Context) : context.active();
    const span = startSpan(name, options, parent);
    const run = fn as (active: Span) => ReturnType<F>;
    return context.with(trace.setSpan(parent, span), run, undefined, span);
  }
  return { startSpan, startActiveSpan };
}

function redactOptions(
  redaction: SpanRedaction,
  options: SpanOptions | undefined,
): SpanOptions | undefined {
  if (options === undefined) return undefined;
  const { attributes, links } = options;
  return {
    ...options,
    ...(attributes !== undefined ? { attributes: redactAttributes(redaction, attributes) } : {}),
    ...(links !== undefined ? { links: redactLinks(redaction, links) } : {}),
  };
}
