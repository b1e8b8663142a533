import { JuneError } from '../errors/june-error.js';
import { closeNode } from '../trace/trace-builder.js';
import type { TraceNode, TraceStatus } from '../trace/trace-node.js';

/** The trace status an error settles a node with: `aborted` for an abort, else `failed`. */
export function statusOf(error: unknown): TraceStatus {
  return JuneError.isInstance(error) && error.code === 'run-aborted' ? 'aborted' : 'failed';
}

/**
 * Closes `node` and every descendant still open after `error`: the error is recorded on
 * `node` itself, descendants get the same status. Returns the status.
 */
export function settleOnError(node: TraceNode, error: unknown): TraceStatus {
  const status = statusOf(error);
  closeOpen(node, status);
  closeNode(node, status, error);
  return status;
}

/** Closes the open descendants of `node`, without recursion (a trace may be deep). */
function closeOpen(node: TraceNode, status: TraceStatus): void {
  const stack = [...node.children];
  while (stack.length > 0) {
    const child = stack.pop()!;
    stack.push(...child.children);
    if (!child.endedAt) closeNode(child, status);
  }
}
