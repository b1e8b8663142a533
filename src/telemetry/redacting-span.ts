import type {
  Exception,
  Link,
  Span,
  SpanAttributes,
  SpanAttributeValue,
  SpanContext,
  SpanStatus,
  TimeInput,
} from '@opentelemetry/api';
import { REDACTED, type Redactor } from '../redaction/redactor.js';

/**
 * How a redacting span or tracer treats what is written to it: `redactor` removes the run's
 * secrets from every string, and an attribute whose key `hidden` accepts gets `[redacted]`
 * whatever its value (the request headers the AI SDK's spans record).
 */
export interface SpanRedaction {
  redactor: Redactor;
  hidden?: (key: string) => boolean;
}

/**
 * A span whose every write passes through a run's redaction: attribute values (strings and
 * the strings of arrays), event names and attributes, link attributes, the status message,
 * the span's name and a recorded exception's name, message and stack. Everything else (its
 * context, `end`, `isRecording`) is the wrapped span's own.
 *
 * @example
 * ```ts
 * const span = new RedactingSpan(tracer.startSpan('ai.toolCall'), { redactor });
 * span.setAttribute('ai.toolCall.result', 'key sk-live-123456'); // 'key [redacted]' is recorded
 * ```
 */
export class RedactingSpan implements Span {
  readonly #span: Span;
  readonly #redaction: SpanRedaction;

  constructor(span: Span, redaction: SpanRedaction) {
    this.#span = span;
    this.#redaction = redaction;
  }

  spanContext(): SpanContext {
    return this.#span.spanContext();
  }

  setAttribute(key: string, value: SpanAttributeValue): this {
    this.#span.setAttribute(key, redactAttribute(this.#redaction, key, value));
    return this;
  }

  setAttributes(attributes: SpanAttributes): this {
    this.#span.setAttributes(redactAttributes(this.#redaction, attributes));
    return this;
  }

  addEvent(
    name: string,
    attributesOrStartTime?: SpanAttributes | TimeInput,
    startTime?: TimeInput,
  ): this {
    const text = this.#redaction.redactor.text(name);
    if (isTime(attributesOrStartTime)) this.#span.addEvent(text, attributesOrStartTime, startTime);
    else
      this.#span.addEvent(
        text,
        redactAttributes(this.#redaction, attributesOrStartTime),
        startTime,
      );
    return this;
  }

  addLink(link: Link): this {
    this.#span.addLink(redactLink(this.#redaction, link));
    return this;
  }

  addLinks(links: Link[]): this {
    this.#span.addLinks(links.map((link) => redactLink(this.#redaction, link)));
    return this;
  }

  setStatus(status: SpanStatus): this {
    const { message } = status;
    this.#span.setStatus(
      message === undefined
        ? status
        : { ...status, message: this.#redaction.redactor.text(message) },
    );
    return this;
  }

  updateName(name: string): this {
    this.#span.updateName(this.#redaction.redactor.text(name));
    return this;
  }

  end(endTime?: TimeInput): void {
    this.#span.end(endTime);
  }

  isRecording(): boolean {
    return this.#span.isRecording();
  }

  recordException(exception: Exception, time?: TimeInput): void {
    this.#span.recordException(redactException(this.#redaction.redactor, exception), time);
  }
}

/** `attributes` with each value redacted (`undefined` stays `undefined`). */
export function redactAttributes<A extends SpanAttributes | undefined>(
  redaction: SpanRedaction,
  attributes: A,
): A {
  if (attributes === undefined) return attributes;
  const out: SpanAttributes = {};
  for (const [key, value] of Object.entries(attributes))
    out[key] = value === undefined ? value : redactAttribute(redaction, key, value);
  return out as A;
}

/** Links with their attributes redacted (`undefined` stays `undefined`). */
export function redactLinks(
  redaction: SpanRedaction,
  links: Link[] | undefined,
): Link[] | undefined {
  return links?.map((link) => redactLink(redaction, link));
}

function redactLink(redaction: SpanRedaction, link: Link): Link {
  return link.attributes === undefined
    ? link
    : { ...link, attributes: redactAttributes(redaction, link.attributes) };
}

function redactAttribute(
  { redactor, hidden }: SpanRedaction,
  key: string,
  value: SpanAttributeValue,
): SpanAttributeValue {
  if (hidden?.(key)) return REDACTED;
  if (typeof value === 'string') return redactor.text(value);
  if (Array.isArray(value))
    return value.map((item: unknown) =>
      typeof item === 'string' ? redactor.text(item) : item,
    ) as SpanAttributeValue;
  return value;
}

function redactException(redactor: Redactor, exception: Exception): Exception {
  if (typeof exception === 'string') return redactor.text(exception);
  const { code, name, message, stack } = exception;
  return {
    ...(code !== undefined ? { code } : {}),
    ...(name !== undefined ? { name: redactor.text(name) } : {}),
    ...(message !== undefined ? { message: redactor.text(message) } : {}),
    ...(stack !== undefined ? { stack: redactor.text(stack) } : {}),
  } as Exception;
}

/** A `TimeInput` (a number, a `Date` or an `HrTime` pair) rather than attributes. */
function isTime(value: SpanAttributes | TimeInput | undefined): value is TimeInput {
  return typeof value === 'number' || value instanceof Date || Array.isArray(value);
}
