import {
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { CapabilityProvenance } from '../capabilities/scope.js';
import type {
  TraceApproval,
  TraceBudget,
  TraceGuardDecision,
  TraceNode,
} from '../trace/trace-node.js';
import { spanAttributes, text, type TelemetryContent } from './span-attributes.js';

/** What {@link TraceSpans} needs: where spans go, under what, and what content they may carry. */
export interface TraceSpansOptions {
  tracer: Tracer;
  /** The context the run's root span is started in (its parent span, if any). */
  parent: Context;
  /** The outermost run's id, on every span as `june.run.id`. */
  runId: string;
  content: TelemetryContent;
  /** True for a run taken up again from its journal: its run span says so (`june.run.resumed`). */
  resumed?: boolean;
}

/** An open span and what its node's children need from it. */
interface OpenSpan {
  node: TraceNode;
  span: Span;
  context: Context;
  /** The provenance of the tools of the agent this node runs under. */
  capabilities?: CapabilityProvenance[];
  /** The last approval state recorded as a span event. */
  approval?: TraceApproval['status'];
}

/**
 * One OpenTelemetry span per trace node, nested as the trace is: a node's span starts when
 * the node opens and ends when it closes, with the node's times (ms), status, error and
 * attributes (see {@link spanAttributes}). Approval requests and answers are span events on
 * the tool call's span. The span tree matches June's trace node for node.
 */
export class TraceSpans {
  readonly #open = new Map<string, OpenSpan>();
  /** Spans that ended, by node id: a late child (a child run's node) still nests under them. */
  readonly #ended = new Map<string, Pick<OpenSpan, 'context' | 'capabilities'>>();

  constructor(private readonly options: TraceSpansOptions) {}

  /** Whether the node has a span, open or ended. */
  has(nodeId: string): boolean {
    return this.#open.has(nodeId) || this.#ended.has(nodeId);
  }

  /** The context a node's span is active in (to run work, such as model calls, under it). */
  contextOf(nodeId: string): Context | undefined {
    return this.#open.get(nodeId)?.context;
  }

  /**
   * Starts the span of `node`, under the span of `parentId` (the run's parent context when
   * none), at the node's start. Nothing happens for a node that has a span already; what
   * the node holds beyond its start is recorded by {@link changed}.
   */
  opened(node: TraceNode, parentId: string | undefined): void {
    if (this.has(node.id)) return;
    const parent =
      parentId === undefined ? undefined : (this.#open.get(parentId) ?? this.#ended.get(parentId));
    // a child run's tools come from its own agents, not the calling one's
    const capabilities = node.kind === 'run' ? undefined : parent?.capabilities;
    const { name, kind, attributes } = spanAttributes(
      node,
      this.options.runId,
      this.options.content,
      capabilities,
    );
    if (parentId === undefined && this.options.resumed) attributes['june.run.resumed'] = true;
    const parentContext = parent?.context ?? this.options.parent;
    const startTime = Date.parse(node.startedAt);
    const span = this.options.tracer.startSpan(
      name,
      { kind, attributes, startTime },
      parentContext,
    );
    this.#open.set(node.id, {
      node,
      span,
      context: trace.setSpan(parentContext, span),
      capabilities: node.capabilities ?? capabilities,
    });
  }

  /**
   * Records what changed on a node, at `at` (epoch ms): an approval asked, answered or
   * withdrawn (a span event); its end, once closed, with the spans of its descendants that
   * closed with it (a failed agent settles its open step).
   */
  changed(node: TraceNode, at: number): void {
    const open = this.#open.get(node.id);
    if (!open) return;
    this.#approval(open, at);
    if (node.endedAt === undefined) return;
    for (const other of [...this.#open.values()].reverse())
      if (other.node.endedAt !== undefined) this.#end(other, at);
  }

  /** Records that the node's approval was asked for at `at` (epoch ms), whatever its answer is now. */
  asked(node: TraceNode, at: number): void {
    const open = this.#open.get(node.id);
    if (!open || !node.approval || open.approval !== undefined) return;
    open.approval = 'pending';
    open.span.addEvent(
      ...approvalEvent(
        {
          id: node.approval.id,
          status: 'pending',
          ...questionOf(node.approval),
          ...(node.approval.guard ? { guard: node.approval.guard } : {}),
          ...(node.approval.budget ? { budget: node.approval.budget } : {}),
        },
        at,
        this.options.content,
      ),
    );
  }

  /**
   * A `<Guard>`'s decision about the node (a tool call's input, a step's output or prompt):
   * a `june.guard.decision` span event with the guard, its declaration, what it checked,
   * its action and reason, and whether the run's journal gave it again.
   */
  guarded(nodeId: string, decision: TraceGuardDecision & { at: number }): void {
    const open = this.#open.get(nodeId);
    if (!open) return;
    const attributes: Attributes = {
      'june.guard.name': decision.guard,
      'june.guard.declaration': decision.declaration,
      'june.guard.check': decision.check,
      'june.guard.action': decision.action,
    };
    if (decision.reason !== undefined) attributes['june.guard.reason'] = decision.reason;
    if (decision.replayed) attributes['june.guard.replayed'] = true;
    open.span.addEvent('june.guard.decision', attributes, decision.at);
  }

  /**
   * A `<Budget>` over a step reached its cap before a model call: a `june.budget` span event
   * on the step's span with the budget, its declaration, its caps and spending, and what
   * came of it (`ask`, `allow`, `deny`, `fail`).
   */
  budgeted(nodeId: string, budget: TraceBudget & { at: number }): void {
    const open = this.#open.get(nodeId);
    if (!open) return;
    const attributes: Attributes = {
      'june.budget.name': budget.budget,
      'june.budget.declaration': budget.declaration,
      'june.budget.action': budget.action,
    };
    for (const key of ['tokens', 'usd'] as const) {
      const cap = budget.cap[key];
      const spent = budget.spent[key];
      if (cap !== undefined) attributes[`june.budget.cap.${key}`] = cap;
      if (spent !== undefined) attributes[`june.budget.spent.${key}`] = spent;
    }
    if (budget.replayed) attributes['june.budget.replayed'] = true;
    open.span.addEvent('june.budget', attributes, budget.at);
  }

  /** An approval asked, answered or withdrawn since the last look: a span event. */
  #approval(open: OpenSpan, at: number): void {
    const approval = open.node.approval;
    if (!approval || approval.status === open.approval) return;
    open.approval = approval.status;
    open.span.addEvent(...approvalEvent(approval, at, this.options.content));
  }

  /** Sets `attributes` on the open span of the node `nodeId`, if there is one (content known only to the caller). */
  annotate(nodeId: string, attributes: Attributes): void {
    this.#open.get(nodeId)?.span.setAttributes(attributes);
  }

  /** Adds `link` to the open span of the node `nodeId`, if there is one. */
  link(nodeId: string | undefined, link: Link): void {
    if (nodeId !== undefined) this.#open.get(nodeId)?.span.addLink(link);
  }

  /** Ends every span still open (a run that ended without closing them), at `at` (epoch ms). */
  endAll(at: number): void {
    for (const open of [...this.#open.values()].reverse()) this.#end(open, at);
  }

  #end(open: OpenSpan, at: number): void {
    const node = open.node;
    this.#approval(open, node.endedAt === undefined ? at : Date.parse(node.endedAt));
    const { name, attributes } = spanAttributes(
      node,
      this.options.runId,
      this.options.content,
      open.capabilities,
    );
    open.span.updateName(name);
    open.span.setAttributes(attributes);
    if (node.status === 'failed' || node.status === 'aborted') {
      open.span.setStatus({
        code: SpanStatusCode.ERROR,
        ...(node.error ? { message: node.error.message } : {}),
      });
    }
    open.span.end(node.endedAt === undefined ? at : Date.parse(node.endedAt));
    this.#open.delete(node.id);
    this.#ended.set(node.id, { context: open.context, capabilities: open.capabilities });
  }
}

/**
 * The span event for an approval's state: asked, answered (by whom; edited, or answered
 * instead of the tool), or withdrawn. An edited input and an answer given instead of the
 * tool are content: recorded as `content` allows.
 */
function approvalEvent(
  approval: TraceApproval,
  at: number,
  content: TelemetryContent,
): [string, Attributes, number] {
  const attributes: Attributes = { 'june.approval.id': approval.id };
  // a question says so on each of its events, with what it asked when inputs are recorded
  if (approval.kind === 'question') {
    attributes['june.approval.kind'] = 'question';
    if (content.recordInputs && approval.question !== undefined)
      attributes['june.question.prompt'] = approval.question.prompt;
  }
  // a call a guard escalated says which guard, and why, on each of its events
  if (approval.guard !== undefined) {
    attributes['june.approval.guard'] = approval.guard.name;
    if (approval.guard.reason !== undefined)
      attributes['june.approval.guard_reason'] = approval.guard.reason;
  }
  // a budget's request for more says which budget
  if (approval.budget !== undefined) attributes['june.approval.budget'] = approval.budget.name;
  if (approval.status === 'pending') return ['june.approval.request', attributes, at];
  if (approval.reason !== undefined) attributes['june.approval.reason'] = approval.reason;
  if (approval.status === 'withdrawn') return ['june.approval.withdraw', attributes, at];
  attributes['june.approval.approved'] = approval.status === 'approved';
  if (approval.input !== undefined) {
    attributes['june.approval.edited'] = true;
    if (content.recordInputs) attributes['june.approval.input'] = text(approval.input);
  }
  if (approval.status === 'responded') {
    attributes['june.approval.responded'] = true;
    if (content.recordOutputs && approval.output !== undefined)
      attributes['june.approval.output'] = text(approval.output);
  }
  attributes['june.approval.answered_by'] = approval.replayed
    ? 'journal'
    : approval.automatic
      ? 'policy'
      : 'person';
  // through which way, who and when (absent in traces written before answers kept them)
  if (approval.source !== undefined) attributes['june.approval.source'] = approval.source;
  if (approval.answeredBy !== undefined) attributes['june.approval.answerer'] = approval.answeredBy;
  if (approval.answeredAt !== undefined)
    attributes['june.approval.answered_at'] = approval.answeredAt;
  return ['june.approval.response', attributes, at];
}

/** A question's kind and what it asked, for an approval event made before its answer. */
function questionOf(approval: TraceApproval): Pick<TraceApproval, 'kind' | 'question'> {
  return approval.kind === 'question'
    ? { kind: approval.kind, ...(approval.question ? { question: approval.question } : {}) }
    : {};
}
