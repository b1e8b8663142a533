import { TraceFlags, type SpanContext } from '@opentelemetry/api';

/** `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`, the W3C trace context header's only version yet. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * A span's place in its trace as a W3C `traceparent` value (`00-<trace id>-<span id>-<flags>`),
 * the form a run's journal keeps it in and `TRACEPARENT` gives it.
 */
export function formatTraceparent(span: SpanContext): string {
  const flags = (span.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0');
  return `00-${span.traceId}-${span.spanId}-${flags}`;
}

/**
 * A W3C `traceparent` value as a remote span context; `undefined` for a malformed one or one
 * with an all-zero trace or span id (invalid by the W3C rules).
 */
export function parseTraceparent(text: string | undefined): SpanContext | undefined {
  const match = TRACEPARENT.exec(text?.trim() ?? '');
  if (!match || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined;
  return {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: parseInt(match[3]!, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
}
