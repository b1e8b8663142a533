import type { TraceError, TraceNode, TraceStatus } from '../trace/trace-node.js';
import { isoTime } from '../trace/iso-time.js';

/**
 * Closes `node` at `at` (ms since the epoch) with its final status; `durationMs` runs from
 * `startedMs`. A node already closed stays as it is. With `error`, the node records it.
 */
export function closeTraceNode(
  node: TraceNode,
  status: TraceStatus,
  at: number,
  startedMs: number | undefined,
  error?: TraceError,
): void {
  if (node.endedAt) return;
  node.status = status;
  node.endedAt = isoTime(at);
  node.durationMs = at - (startedMs ?? Date.parse(node.startedAt));
  if (error) node.error = error;
}

/**
 * The nodes under `node` still open, deepest first (children before their parent), without
 * recursion (a trace may be deep). Child runs in tool outputs are not under a node.
 */
export function openDescendants(node: TraceNode): TraceNode[] {
  const found: TraceNode[] = [];
  const stack = [...node.children];
  while (stack.length > 0) {
    const child = stack.pop()!;
    stack.push(...child.children);
    if (!child.endedAt) found.push(child);
  }
  return found;
}
