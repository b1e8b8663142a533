import type { TraceNode } from '../trace/trace-node.js';
import { childTraceOf } from './child-trace.js';

/**
 * The tokens of a trace subtree: the model calls in it, child runs of composite tool calls
 * included (so a step counts the child runs of its tool calls, and the numbers add up level
 * by level). A model call counts its own `usage.totalTokens`; a node with no model call
 * below it falls back to its own usage. `undefined` when nothing reported a count.
 *
 * Walks without recursion (children before their parent), so any depth is fine.
 *
 * @example
 * ```ts
 * totalTokens(trace.root); // 1234: every model call so far, also while the run is running
 * ```
 */
export function totalTokens(node: TraceNode): number | undefined {
  const sums = new Map<TraceNode, number | undefined>();
  const stack: Array<{ node: TraceNode; below: TraceNode[] | undefined }> = [
    { node, below: undefined },
  ];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.below === undefined) {
      // first visit: queue what lies below (children, then a composite call's child run)
      const childRun = top.node.kind === 'model' ? undefined : childTraceOf(top.node);
      top.below =
        top.node.kind === 'model'
          ? []
          : childRun
            ? [...top.node.children, childRun.root]
            : top.node.children;
      for (const child of top.below) stack.push({ node: child, below: undefined });
      continue;
    }
    stack.pop();
    sums.set(
      top.node,
      nodeTokens(
        top.node,
        top.below.map((child) => sums.get(child)),
      ),
    );
  }
  return sums.get(node);
}

/**
 * One node's tokens, given the tokens of what lies below it (its children, then a composite
 * call's child run): a model call counts its own `usage.totalTokens`; any other node the sum
 * of those below that reported a count, else its own `usage.totalTokens`. The one rule
 * {@link totalTokens} and Studio's tree add tokens up by.
 *
 * @example
 * ```ts
 * nodeTokens(stepNode, [120, undefined, 30]); // 150
 * ```
 */
export function nodeTokens(
  node: TraceNode,
  below: Iterable<number | undefined>,
): number | undefined {
  const own = typeof node.usage?.totalTokens === 'number' ? node.usage.totalTokens : undefined;
  if (node.kind === 'model') return own;
  let sum: number | undefined;
  for (const tokens of below) if (tokens !== undefined) sum = (sum ?? 0) + tokens;
  return sum ?? own;
}
