import type { CompositeToolResult } from '../trace/composite-result.js';
import type { Trace, TraceNode } from '../trace/trace-node.js';

/**
 * A trace as a run's events build it (see `applyEvent`): the outermost run's trace, every
 * run's trace (child runs included) and every node, by node id, so an event finds its node
 * without walking the tree.
 */
export interface LiveTrace {
  /** The outermost run's trace, once its `run-start` came. */
  trace?: Trace;
  /** Every node by id. */
  readonly nodes: Map<string, TraceNode>;
  /** Every run's trace by its run node's id (a child run's is also its tool node's `output.trace`). */
  readonly runs: Map<string, Trace>;
  /** When each open node started, ms since the epoch (so closing needs no `Date.parse`). */
  readonly startedAt: Map<string, number>;
  /**
   * Child runs whose composite tool call has no node yet, by that node's id: the
   * `{ trace, usage }` its node's `output` becomes when it opens.
   */
  readonly waiting: Map<string, ChildRunOutput>;
  /** The live `{ trace, usage }` of each child run still running, by run id. */
  readonly live: Map<string, ChildRunOutput>;
}

/**
 * What a composite tool call's node shows as its `output` while its child run runs, or after
 * it failed: its {@link CompositeToolResult} without `output`, with the tokens used so far
 * (every finished step's; the child run's whole usage once it ended).
 */
export type ChildRunOutput = Omit<CompositeToolResult, 'output'>;

/**
 * An empty trace, for `applyEvent` to build from a run's events.
 *
 * @example
 * ```ts
 * const live = liveTrace();
 * for (const event of log) applyEvent(live, event);
 * live.trace; // the run's trace
 * ```
 */
export function liveTrace(): LiveTrace {
  return {
    nodes: new Map(),
    runs: new Map(),
    startedAt: new Map(),
    waiting: new Map(),
    live: new Map(),
  };
}
