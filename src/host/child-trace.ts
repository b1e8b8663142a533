import { childRunOf } from '../trace/composite-result.js';
import type { Trace, TraceNode } from '../trace/trace-node.js';
import { traceProblem } from './trace-problem.js';

/**
 * The child run of a composite tool call that Studio can show: {@link childRunOf}, when that
 * trace also passes Studio's check ({@link traceProblem}). `undefined` for any other node or
 * when the output holds no valid trace (a call still running, a failed call, a plain tool).
 *
 * @example
 * ```ts
 * const child = childTraceOf(toolNode);
 * if (child) console.log(child.runId, child.root.children.length);
 * ```
 */
export function childTraceOf(node: TraceNode): Trace | undefined {
  const trace = childRunOf(node);
  return trace !== undefined && traceProblem(trace) === undefined ? trace : undefined;
}
