import type { TraceError, TraceFailures, TraceNode } from './trace-node.js';
import { childRunOf } from './composite-result.js';

// declared with the node it counts for (a run node's `failures`), so the trace's shape imports no helper
export type { TraceFailures } from './trace-node.js';

/** One failure found in a trace: the node's kind and name, and its error. */
export interface TraceFailure {
  kind: 'tool' | 'catch';
  name: string;
  error: TraceError;
  /** The errors under it, deepest last: a composite tool's child run, down to the first failure. */
  causes: TraceError[];
}

/**
 * Every failure under `root` that did not fail the run: failed tool calls and caught
 * attempts, in document order, child runs of composite tools included.
 *
 * @example
 * ```ts
 * const failures = traceFailureList(result.trace.root);
 * failures.filter((failure) => failure.kind === 'tool').length; // tools that failed
 * ```
 */
export function traceFailureList(root: TraceNode): TraceFailure[] {
  const found: TraceFailure[] = [];
  const visit = (node: TraceNode) => {
    if (
      (node.kind === 'tool' || (node.kind === 'catch' && node.name !== 'fallback')) &&
      node.status === 'failed' &&
      node.error
    ) {
      found.push({
        kind: node.kind,
        name: node.name,
        error: node.error,
        causes: errorsUnder(node),
      });
    }
    node.children.forEach(visit);
    const child = childRunOf(node)?.root;
    if (child) visit(child);
  };
  root.children.forEach(visit);
  const own = childRunOf(root)?.root;
  if (own) visit(own);
  return found;
}

/**
 * The counts of {@link traceFailureList}, or `undefined` when nothing failed.
 *
 * @example
 * ```ts
 * traceFailures(trace.root); // { tools: 1, caught: 0 }
 * ```
 */
export function traceFailures(root: TraceNode): TraceFailures | undefined {
  const list = traceFailureList(root);
  if (list.length === 0) return undefined;
  return {
    tools: list.filter((failure) => failure.kind === 'tool').length,
    caught: list.filter((failure) => failure.kind === 'catch').length,
  };
}

/** The errors recorded under a failed node, depth first (a child run's, then its step's...). */
function errorsUnder(node: TraceNode): TraceError[] {
  const errors: TraceError[] = [];
  const visit = (current: TraceNode) => {
    const child = childRunOf(current)?.root;
    for (const next of [...(child ? [child] : []), ...current.children]) {
      if (next.error) errors.push(next.error);
      visit(next);
    }
  };
  visit(node);
  return errors;
}
