import { errorData, RunAbortedError } from '../errors/index.js';
import { closeTraceNode } from '../events/settle-nodes.js';
import { emptyUsage, sumUsage } from '../models/usage.js';
import type { Trace, TraceNode } from '../trace/trace-node.js';

/**
 * A copy of the trace of a run its database cancelled, ended as `aborted` at `atMs` (ms since
 * the epoch): a cancelled DBOS workflow writes nothing more, so its events stop before the
 * run's end, and its trace would show it running (or waiting) forever. Every node still open
 * is closed `aborted`, and a call still waiting for approval is `withdrawn`, as a run
 * aborted in its own process leaves them; the run's error says it was cancelled, and its
 * usage is its model calls' so far (a run's own usage is written at its end). A trace that
 * ended is given back as it is.
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
  let usage = emptyUsage();
  let called = false;
  while (stack.length > 0) {
    const node = stack.pop()!;
    stack.push(...node.children);
    if (node.kind === 'model' && node.usage) {
      usage = sumUsage(usage, node.usage);
      called = true;
    }
    if (node.approval?.status === 'pending')
      node.approval = { ...node.approval, status: 'withdrawn' };
    closeTraceNode(node, 'aborted', atMs, undefined);
  }
  copy.root.error ??= errorData(
    new RunAbortedError(
      'cancelled through its database (june cancel, Studio or RunClient.cancel), where it stopped',
    ),
  );
  if (copy.root.usage === undefined && called) copy.root.usage = usage;
  copy.status = 'aborted';
  copy.endedAt = copy.root.endedAt!;
  return copy;
}
