import { closeTraceNode } from '../events/settle-nodes.js';
import type { Trace, TraceNode } from '../trace/trace-node.js';

/**
 * A copy of the trace of a run its database cancelled, ended as `aborted` at `atMs` (ms since
 * the epoch): a cancelled DBOS workflow writes nothing more, so its events stop before the
 * run's end, and its trace would show it running (or waiting) forever. Every node still open
 * is closed `aborted`, and a call still waiting for approval is `withdrawn`, as a run
 * aborted in its own process leaves them. A trace that ended is given back as it is.
 *
 * @example
 * ```ts
 * const shown = run.status === 'cancelled' ? cancelledTrace(trace, Date.now()) : trace;
 * ```
 */
export function cancelledTrace(trace: Trace, atMs: number): Trace {
  if (trace.endedAt !== undefined) return trace;
  const copy = structuredClone(trace);
  const stack: TraceNode[] = [copy.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    stack.push(...node.children);
    if (node.approval?.status === 'pending')
      node.approval = { ...node.approval, status: 'withdrawn' };
    closeTraceNode(node, 'aborted', atMs, undefined);
  }
  copy.status = 'aborted';
  copy.endedAt = copy.root.endedAt!;
  return copy;
}
