import type { LanguageModelUsage } from 'ai';
import type { Trace, TraceNode } from './trace-node.js';

/**
 * What a composite tool's `execute` returns, and what its tool call records in the trace
 * (the tool node's `output`, the `tool-result` event):
 * - `output`: what the calling model gets (a string as text, anything else as JSON);
 * - `trace`: the child run's own trace tree;
 * - `usage`: the tokens the child run used, its own child runs included.
 * The calling model sees only `output`. While the child run runs, and after it failed, the
 * node's `output` is the same without `output` (see {@link childRunOf}).
 *
 * @example
 * ```tsx
 * for await (const event of run(<Report />).events) {
 *   if (event.type !== 'tool-result' || event.tool !== 'research') continue;
 *   const { output, trace, usage } = event.output as CompositeToolResult;
 *   console.log(output, trace.status, usage.totalTokens);
 * }
 * ```
 */
export interface CompositeToolResult {
  output: unknown;
  trace: Trace;
  usage: LanguageModelUsage;
}

/**
 * The child run a composite tool call's node holds (its `output.trace`, see
 * {@link CompositeToolResult}): the one place readers of a trace (failures, totals, Studio,
 * spans) find it. `undefined` for any other node, and for an output with no trace object
 * that has a root object (a plain tool, a call that failed before its child run started).
 * The trace's shape is not checked further (Studio checks it with its schema).
 *
 * @example
 * ```ts
 * const child = childRunOf(toolNode);
 * if (child) console.log(child.runId, child.root.children.length);
 * ```
 */
export function childRunOf(node: TraceNode): Trace | undefined {
  return node.kind === 'tool' && isCompositeOutput(node.output) ? node.output.trace : undefined;
}

/**
 * What the calling model got from a tool call's `output`: for a composite call's result (see
 * {@link CompositeToolResult}) its `output` without the child run (`undefined` while the
 * child run runs and after it failed), anything else as it is.
 *
 * @example
 * ```ts
 * modelOutputOf({ output: 'found 3 issues', trace, usage }); // 'found 3 issues'
 * modelOutputOf({ trace, usage }); // undefined: the child run has not finished
 * modelOutputOf({ rows: 3 }); // { rows: 3 }
 * ```
 */
export function modelOutputOf(output: unknown): unknown {
  return isCompositeOutput(output) ? output.output : output;
}

/** A composite call's output, finished or not: an object whose `trace` has a `root` object. */
export function isCompositeOutput(output: unknown): output is { output?: unknown; trace: Trace } {
  if (typeof output !== 'object' || output === null) return false;
  const trace = (output as { trace?: unknown }).trace as { root?: unknown } | null | undefined;
  return (
    typeof trace === 'object' &&
    trace !== null &&
    typeof trace.root === 'object' &&
    trace.root !== null
  );
}
