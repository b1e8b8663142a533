import type { TraceNode } from 'june';

/**
 * Every model node of a trace, child runs of composite calls included (a composite call's
 * output holds its child run's trace), in the order the walk finds them.
 */
export function modelNodes(node: TraceNode): TraceNode[] {
  const found: TraceNode[] = [];
  const stack = [node];
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (top.kind === 'model') found.push(top);
    stack.push(...top.children);
    const child = (top.output as { trace?: { root: TraceNode } } | undefined)?.trace?.root;
    if (top.kind === 'tool' && child) stack.push(child);
  }
  return found;
}
