import type { Trace, TraceNode } from '../trace/trace-node.js';
import { childTraceOf } from './child-trace.js';

/** What state a run is in, as the run list and the run page both show it. */
export type RunState = 'running' | 'waiting' | 'succeeded' | 'failed' | 'aborted';

/**
 * A run's state from its trace, the one rule the run list and the run page share on every
 * host: an ended run is in the state it ended in (`succeeded`, `failed`, `aborted`: a run
 * stopped while a call waited is `aborted`, its call withdrawn, never `waiting`); an open one
 * is `waiting` while a call of it waits for a person's answer (`pending`), else `running`.
 *
 * @example
 * ```ts
 * runState(handle.trace()); // 'waiting' while handle.pendingApprovals is not empty
 * ```
 */
export function runState(trace: Trace): RunState {
  if (trace.status !== 'running' && trace.status !== 'waiting')
    return trace.status === 'denied' ? 'failed' : trace.status;
  return waitsForAnswer(trace.root) ? 'waiting' : 'running';
}

/** True when a node below `root` (composite child runs included) waits for an answer. */
function waitsForAnswer(root: TraceNode): boolean {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.approval?.status === 'pending') return true;
    stack.push(...node.children);
    const child = childTraceOf(node);
    if (child) stack.push(child.root);
  }
  return false;
}
