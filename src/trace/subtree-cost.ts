import { usageTotal } from '../models/usage.js';
import { childRunOf } from './composite-result.js';
import type { TraceGuardDecision, TraceNode } from './trace-node.js';

/**
 * What a trace subtree spent: its model calls (guards' judges' and the summaries of its
 * agents' compactions included), child runs of composite tool calls included.
 *
 * - `usd`: the cost of the calls that have one (`TraceNode.costUsd`), in USD; `undefined`
 *   when none has (a scripted model's calls, a model nobody priced): unknown, not 0;
 * - `tokens`: their tokens (each call's total), `undefined` when none reported a count;
 * - `calls`: the model calls that reported usage;
 * - `unpriced`: how many of those have no cost, so `usd` leaves them out.
 */
export interface SubtreeCost {
  usd: number | undefined;
  tokens: number | undefined;
  calls: number;
  unpriced: number;
}

/**
 * What a trace subtree has spent so far, in USD and tokens: every model call in it, the
 * child runs of composite tool calls included, so the costs of nodes add up level by level
 * to the run's. Reads the trace only (a running run's trace too, `handle.trace()`): the
 * question a budget asks. Walks without recursion, so any depth is fine.
 *
 * @example
 * ```ts
 * const spent = subtreeCost(handle.trace().root);
 * if ((spent.usd ?? 0) > 1) handle.abort('over a dollar');
 * ```
 */
export function subtreeCost(node: TraceNode): SubtreeCost {
  let spent = noCost();
  const stack: TraceNode[] = [node];
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (top.kind === 'model') {
      spent = addCost(spent, callSpent(top));
      continue;
    }
    // a judge's model calls are the guard's: they show on the decision, not as model nodes
    for (const decision of top.guards ?? []) spent = addCost(spent, decisionSpent(decision));
    if (top.compactions) spent = addCost(spent, compactionSpent(top));
    const childRun = childRunOf(top)?.root;
    if (Array.isArray(top.children)) stack.push(...top.children);
    if (childRun && Array.isArray(childRun.children)) stack.push(childRun);
  }
  return spent;
}

/** Nothing spent: the start of a sum. */
export function noCost(): SubtreeCost {
  return { usd: undefined, tokens: undefined, calls: 0, unpriced: 0 };
}

/**
 * What one model call node spent ({@link SubtreeCost} of the call alone): nothing when it
 * reported no usage and has no cost (a call still running, one that failed unpaid). The one
 * rule {@link subtreeCost} and Studio's tree count a call by.
 */
export function callSpent(call: TraceNode): SubtreeCost {
  const tokens = usageTotal(call.usage);
  const usd = typeof call.costUsd === 'number' ? call.costUsd : undefined;
  if (tokens === undefined && usd === undefined) return noCost();
  return { usd, tokens, calls: 1, unpriced: usd === undefined ? 1 : 0 };
}

/**
 * What an agent's compactions spent on summaries written by a model (`TraceNode.compactions`,
 * see `<Agent compact>`): they are model calls of the agent with no node of their own. A
 * summary written by a function costs nothing and is not counted.
 */
export function compactionSpent(agent: TraceNode): SubtreeCost {
  let spent = noCost();
  for (const compaction of agent.compactions ?? []) {
    if (compaction.by !== 'model') continue;
    const usd = typeof compaction.costUsd === 'number' ? compaction.costUsd : undefined;
    spent = addCost(spent, {
      usd,
      tokens: usageTotal(compaction.usage),
      calls: compaction.calls,
      unpriced: usd === undefined ? compaction.calls : 0,
    });
  }
  return spent;
}

/** What a guard's decision spent: its judge's model calls, if it has one. */
function decisionSpent(decision: TraceGuardDecision): SubtreeCost {
  return callSpent({ usage: decision.usage, costUsd: decision.costUsd } as TraceNode);
}

/** Two sums of what was spent, added: an amount unknown on both sides stays unknown. */
export function addCost(a: SubtreeCost, b: SubtreeCost): SubtreeCost {
  const add = (x: number | undefined, y: number | undefined) =>
    x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0);
  return {
    usd: add(a.usd, b.usd),
    tokens: add(a.tokens, b.tokens),
    calls: a.calls + b.calls,
    unpriced: a.unpriced + b.unpriced,
  };
}

/**
 * A cost in USD for people: `$1.23` from a dollar up, `$0.0056` from a cent, two significant
 * digits below (`$0.00045`), `$0` for nothing.
 *
 * @example
 * ```ts
 * formatUsd(0.0056); // '$0.0056'
 * ```
 */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  const digits =
    usd >= 1
      ? { minimumFractionDigits: 2, maximumFractionDigits: 2 }
      : usd >= 0.01
        ? { maximumFractionDigits: 4 }
        : { maximumSignificantDigits: 2 };
  return `$${usd.toLocaleString('en-US', digits)}`;
}

/**
 * A subtree's cost in words, for a summary line: `$0.0056`, `$0.0056 (cost unknown for 2
 * calls)`, `cost unknown for 3 calls` when no call had a price; empty when no model call
 * reported usage.
 *
 * @example
 * ```ts
 * costText(subtreeCost(result.trace.root)); // '$0.0056'
 * ```
 */
export function costText(spent: SubtreeCost): string {
  const unknown = `cost unknown for ${spent.unpriced} call${spent.unpriced === 1 ? '' : 's'}`;
  if (spent.usd === undefined) return spent.unpriced > 0 ? unknown : '';
  return spent.unpriced > 0 ? `${formatUsd(spent.usd)} (${unknown})` : formatUsd(spent.usd);
}
