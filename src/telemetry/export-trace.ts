import type { Trace, TraceNode } from '../trace/trace-node.js';
import { TraceSpans, type TraceSpansOptions } from './trace-spans.js';

/**
 * Exports a settled trace as OpenTelemetry spans, one per node (the child run of a composite
 * tool call under its call), with the nodes' own start and end times, statuses, errors and
 * attributes; an approval's request and answer become span events at the call's start and end.
 *
 * @example
 * ```ts
 * exportTrace(result.trace, { tracer, parent: context.active(), runId: result.trace.runId, content: {} });
 * ```
 */
export function exportTrace(trace: Trace, options: TraceSpansOptions): void {
  const spans = new TraceSpans(options);
  const visit = (node: TraceNode, parentId: string | undefined) => {
    spans.opened(node, parentId);
    if (node.approval) spans.asked(node, Date.parse(node.startedAt));
    for (const child of childrenOf(node)) visit(child, node.id);
  };
  visit(trace.root, undefined);
  const close = (node: TraceNode) => {
    for (const child of childrenOf(node)) close(child);
    spans.changed(node, node.endedAt === undefined ? Date.now() : Date.parse(node.endedAt));
  };
  close(trace.root);
  spans.endAll(Date.now());
}

/** A node's children; a composite tool call's child run (its `output.trace`) first. */
function childrenOf(node: TraceNode): TraceNode[] {
  const child = (node.output as { trace?: Trace } | undefined)?.trace?.root;
  return node.kind === 'tool' && child !== undefined ? [child, ...node.children] : node.children;
}
