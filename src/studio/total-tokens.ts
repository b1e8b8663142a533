import type { TraceNode } from '../trace/trace-node.js';
import { childTraceOf } from './child-trace.js';

/**
 * The tokens of a trace subtree: the model calls in it, child runs of composite tool calls
 * included (so a step counts the child runs of its tool calls, and the numbers add up level
 * by level). A model call counts its own `usage.totalTokens`; a node with no model call
 * below it falls back to its own usage. `undefined` when nothing reported a count.
 *
 * @example
 * ```ts
 * totalTokens(trace.root); // 1234: every model call so far, also while the run is running
 * ```
 */
export function totalTokens(node: TraceNode): number | undefined {
  const own = node.usage?.totalTokens;
  if (node.kind === 'model') return typeof own === 'number' ? own : undefined;
  let sum: number | undefined;
  const add = (tokens: number | undefined) => {
    if (tokens !== undefined) sum = (sum ?? 0) + tokens;
  };
  for (const child of node.children) add(totalTokens(child));
  const childRun = childTraceOf(node);
  if (childRun) add(totalTokens(childRun.root));
  return sum ?? (typeof own === 'number' ? own : undefined);
}
