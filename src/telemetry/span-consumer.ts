import { context, trace, type Link } from '@opentelemetry/api';
import { isDelta } from '../events/run-event-kinds.js';
import { applyEvent } from '../events/apply-event.js';
import { liveTrace } from '../events/live-trace.js';
import type { RunConsumer } from '../events/run-consumer.js';
import type { RunLogEvent } from '../events/run-event.js';
import type { TraceNode } from '../trace/trace-node.js';
import { GenAiMessages } from './genai-messages.js';
import { TraceSpans, type TraceSpansOptions } from './trace-spans.js';
import { formatTraceparent, parseTraceparent } from './traceparent.js';

/** What a {@link SpanConsumer} starts from: {@link TraceSpansOptions} without the run id (the first event gives it). */
export type SpanConsumerOptions = Omit<TraceSpansOptions, 'runId'> & { runId?: string };

/**
 * Exports a run as OpenTelemetry spans while it runs: a consumer (`RunConsumer`) that
 * reduces the run's events to its own copy of the trace (`applyEvent`) and starts a node's
 * span at the event that opens the node, ends it at the event that closes it, both at the
 * events' times (`at`), so a backend shows a long run's finished steps while it still waits
 * (on an approval, say). The spans are June's trace node for node (see {@link TraceSpans}).
 *
 * It also makes a step's span the active OpenTelemetry context while the step's model calls
 * run ({@link within}), so spans made there (the AI SDK's `ai.streamText` with
 * `experimental_telemetry`, an instrumented HTTP client) nest under the step.
 *
 * @example
 * ```ts
 * const spans = new SpanConsumer({ tracer, parent: context.active(), content: {} });
 * await run(<Release />, { consumers: [spans] }).result;
 * ```
 */
export class SpanConsumer implements RunConsumer {
  readonly #live = liveTrace();
  readonly #spans: TraceSpans;
  readonly #options: TraceSpansOptions;
  /** Nodes whose parent has no span yet (a child run seen before its call), by the parent's id. */
  readonly #waiting = new Map<string, TraceNode[]>();
  /** Span links for the run span (earlier parts of a resumed run), added once it starts. */
  readonly #links: Link[] = [];
  /** The messages of each model call, rebuilt from the events when content is recorded. */
  readonly #messages: GenAiMessages | undefined;
  #rootId: string | undefined;

  constructor(options: SpanConsumerOptions) {
    this.#options = { ...options, runId: options.runId ?? '' };
    this.#spans = new TraceSpans(this.#options);
    const { recordInputs, recordOutputs } = options.content;
    this.#messages = recordInputs || recordOutputs ? new GenAiMessages(options.content) : undefined;
  }

  /** @inheritdoc */
  event(event: RunLogEvent): void {
    const messages = this.#messages?.event(event);
    if (isDelta(event)) return;
    if (this.#rootId === undefined && event.type === 'run-start') {
      this.#rootId = event.nodeId;
      if (this.#options.runId === '') this.#options.runId = event.runId;
    }
    applyEvent(this.#live, event);
    const node = this.#live.nodes.get(event.nodeId);
    if (!node) return;
    if (!this.#spans.has(node.id)) this.#open(node, event.parentId);
    if (event.type === 'approval-request') this.#spans.asked(node, event.at);
    if (event.type === 'guard-decision') this.#spans.guarded(node.id, event);
    if (event.type === 'budget') this.#spans.budgeted(node.id, event);
    if (messages) this.#spans.annotate(messages.nodeId, messages.attributes);
    this.#spans.changed(node, event.at);
  }

  /** @inheritdoc */
  end(): void {
    this.#spans.endAll(Date.now());
  }

  /**
   * Runs `work` (a step's model calls) with the span of the node `nodeId` as the active
   * OpenTelemetry context; as it is when the node has no open span.
   */
  within<T>(nodeId: string, work: () => T): T {
    const active = this.#spans.contextOf(nodeId);
    return active ? context.with(active, work) : work();
  }

  /** The run span's W3C `traceparent` (`00-<trace id>-<span id>-<flags>`), once it started. */
  traceparent(): string | undefined {
    const root = this.#rootId === undefined ? undefined : this.#spans.contextOf(this.#rootId);
    const span = root && trace.getSpan(root);
    return span ? formatTraceparent(span.spanContext()) : undefined;
  }

  /**
   * Links the run span to the spans of earlier parts of the run (a resumed run's original
   * run and earlier resumes), given as W3C `traceparent`s; malformed ones are left out.
   */
  linkTo(traceparents: readonly string[]): void {
    for (const text of traceparents) {
      const spanContext = parseTraceparent(text);
      if (!spanContext) continue;
      const link: Link = { context: spanContext, attributes: { 'june.link': 'resumed-from' } };
      this.#links.push(link);
      this.#spans.link(this.#rootId, link);
    }
  }

  #open(node: TraceNode, parentId: string | undefined): void {
    if (parentId !== undefined && !this.#spans.has(parentId)) {
      const waiting = this.#waiting.get(parentId) ?? [];
      waiting.push(node);
      this.#waiting.set(parentId, waiting);
      return;
    }
    this.#spans.opened(node, parentId);
    if (node.id === this.#rootId) for (const link of this.#links) this.#spans.link(node.id, link);
    const children = this.#waiting.get(node.id);
    this.#waiting.delete(node.id);
    for (const child of children ?? []) this.#open(child, node.id);
  }
}
