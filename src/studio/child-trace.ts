import type { Trace, TraceNode } from '../trace/trace-node.js';
import { traceProblem } from './trace-problem.js';

/**
 * The child run of a composite tool call: a tool node's `output` is `{ output, trace, usage }`
 * where `trace` is a whole `Trace`. Returns that trace, or `undefined` for any other node or
 * when the output holds no valid trace (a call still running, a failed call, a plain tool).
 *
 * @example
 * ```ts
 * const child = childTraceOf(toolNode);
 * if (child) console.log(child.runId, child.root.children.length);
 * ```
 */
export function childTraceOf(node: TraceNode): Trace | undefined {
  if (node.kind !== 'tool') return undefined;
  const output = node.output as { trace?: unknown } | null | undefined;
  if (typeof output !== 'object' || output === null || !('trace' in output)) return undefined;
  return traceProblem(output.trace) === undefined ? (output.trace as Trace) : undefined;
}
