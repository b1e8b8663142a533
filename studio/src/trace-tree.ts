import { childTraceOf } from '../../src/host/child-trace.js';
import { nodeTokens } from '../../src/host/total-tokens.js';
import type { Trace, TraceNode } from '../../src/trace/trace-node.js';
import {
  addCost,
  callSpent,
  compactionSpent,
  noCost,
  type SubtreeCost,
} from '../../src/trace/subtree-cost.js';

/**
 * One node of the tree Studio draws: a trace node, where it stands, and its tokens (the model
 * calls below it, child runs included). A composite tool call's child run is the call's last child.
 */
export interface TreeItem {
  /** Stable across reloads of a running trace (its path: `r.0.2`, `r.0.2.c` for a child run). */
  key: string;
  node: TraceNode;
  depth: number;
  parent: TreeItem | undefined;
  children: TreeItem[];
  tokens: number | undefined;
  /**
   * What the model calls below cost (child runs included): `usd` of those with a price,
   * `unpriced` the calls whose cost is unknown (see `subtreeCost`).
   */
  spent: SubtreeCost;
  /** Failures below this item (see {@link isFailure}), child runs included. */
  failedBelow: number;
  /** Run nodes: the trace they are the root of (the outermost run or a child run). */
  trace?: Trace;
}

/** A whole trace as a tree of items, with an index by key. */
export interface TraceTree {
  root: TreeItem;
  byKey: Map<string, TreeItem>;
}

/**
 * Builds the tree Studio draws from a trace, child runs of composite tool calls nested under
 * their call. Walks without recursion (items first, then tokens from the leaves up), so a
 * trace of any depth builds.
 */
export function buildTraceTree(trace: Trace): TraceTree {
  const byKey = new Map<string, TreeItem>();
  const root = newItem('r', trace.root, undefined, trace);
  const order: TreeItem[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const item = stack.pop()!;
    byKey.set(item.key, item);
    order.push(item);
    const { node, key } = item;
    node.children.forEach((child, index) =>
      item.children.push(newItem(`${key}.${index}`, child, item)),
    );
    const childRun = childTraceOf(node);
    if (childRun) item.children.push(newItem(`${key}.c`, childRun.root, item, childRun));
    for (let i = item.children.length - 1; i >= 0; i--) stack.push(item.children[i]!);
  }
  // Tokens add up level by level: the model calls below, child runs included (see totalTokens).
  for (let i = order.length - 1; i >= 0; i--) {
    const item = order[i]!;
    item.tokens = nodeTokens(
      item.node,
      item.children.map((child) => child.tokens),
    );
    // costs add up the same way: a model call's own, any other node the sum of those below
    // (an agent's with the summaries of its compactions)
    item.spent =
      item.node.kind === 'model'
        ? callSpent(item.node)
        : item.children.reduce(
            (sum, child) => addCost(sum, child.spent),
            compactionSpent(item.node),
          );
    if (item.parent) item.parent.failedBelow += item.failedBelow + (isFailure(item) ? 1 : 0);
  }
  return { root, byKey };
}

/** An item of the tree before its sums are made (tokens, cost, failures below). */
function newItem(
  key: string,
  node: TraceNode,
  parent: TreeItem | undefined,
  trace?: Trace,
): TreeItem {
  return {
    key,
    node,
    depth: parent ? parent.depth + 1 : 0,
    parent,
    children: [],
    tokens: undefined,
    spent: noCost(),
    failedBelow: 0,
    ...(trace ? { trace } : {}),
  };
}

/**
 * The rows on screen: the tree in document order, without the descendants of collapsed items;
 * with `only`, just the items whose keys it has (an item left out hides its descendants).
 */
export function visibleRows(
  tree: TraceTree,
  collapsed: ReadonlySet<string>,
  only?: ReadonlySet<string>,
): TreeItem[] {
  const rows: TreeItem[] = [];
  const stack = [tree.root];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (only && !only.has(item.key)) continue;
    rows.push(item);
    if (collapsed.has(item.key)) continue;
    for (let i = item.children.length - 1; i >= 0; i--) stack.push(item.children[i]!);
  }
  return rows;
}

/**
 * True for a failure a reader looks for: a tool call, a child run or a `<Catch>` attempt that
 * failed (in a run that succeeded, the model or a `<Catch>` went on past it). A failed child
 * run whose call failed with it is one failure: its call's.
 */
export function isFailure(item: TreeItem): boolean {
  if (item.node.status !== 'failed') return false;
  const { kind, name } = item.node;
  if (isChildRun(item)) return item.parent?.node.status !== 'failed'; // else its call counts
  return kind === 'tool' || (kind === 'catch' && name !== 'fallback');
}

/** True for the root of a composite tool call's child run. */
export function isChildRun(item: TreeItem): boolean {
  return item.node.kind === 'run' && item.parent !== undefined;
}

/** The nearest agent above an item (the agent a step or tool call belongs to). */
export function enclosingAgent(item: TreeItem): TreeItem | undefined {
  for (let at = item.parent; at; at = at.parent) if (at.node.kind === 'agent') return at;
  return undefined;
}

/** The tool calls an agent made itself: under its steps, not in nested agents or child runs. */
export function toolCallsOf(agent: TreeItem): TreeItem[] {
  const calls: TreeItem[] = [];
  const stack = [...agent.children];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.node.kind === 'agent' || item.node.kind === 'run') continue;
    if (item.node.kind === 'tool') calls.push(item);
    else stack.push(...item.children);
  }
  return calls.sort((a, b) => a.node.startedAt.localeCompare(b.node.startedAt));
}

/** What a row calls a node: the model id for model calls, else its name. */
export function labelOf(node: TraceNode): string {
  return node.kind === 'model' ? (node.model ?? node.name) : node.name;
}

/** A call answered while other requests of its model turn wait: it waits with them. */
export function isHeld(node: TraceNode): boolean {
  return (
    node.status === 'waiting' &&
    (node.approval?.status === 'approved' ||
      node.approval?.status === 'denied' ||
      node.approval?.status === 'responded')
  );
}
