import { modelOutputOf } from '../../src/trace/composite-result.js';
import type { TraceNode } from '../../src/trace/trace-node.js';
import {
  isChildRun,
  isFailure,
  labelOf,
  visibleRows,
  type TraceTree,
  type TreeItem,
} from './trace-tree.js';

const texts = new WeakMap<TraceNode, string>();

/**
 * The items whose text holds `query` (case-insensitive), in document order: a node's name,
 * model, step path, tool call id, input, output, prompt, result, messages and error. A
 * composite call's output is its result, not its child run (the child run's nodes are
 * searched as nodes of their own). An empty query finds nothing.
 */
export function findInTrace(tree: TraceTree, query: string): TreeItem[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [];
  return visibleRows(tree, new Set()).filter((item) => textOf(item.node).includes(needle));
}

/** The keys of every failure (see `isFailure`; failed child runs too) and of the items above each, so they show. */
export function failurePaths(tree: TraceTree): Set<string> {
  const keys = new Set<string>();
  for (const item of tree.byKey.values()) {
    if (!isFailure(item) && !(isChildRun(item) && item.node.status === 'failed')) continue;
    for (let at: TreeItem | undefined = item; at && !keys.has(at.key); at = at.parent)
      keys.add(at.key);
  }
  return keys;
}

/** A node's searchable text, lower-cased, computed once per node. */
function textOf(node: TraceNode): string {
  let text = texts.get(node);
  if (text === undefined) {
    const shown = modelOutputOf(node.output);
    const parts = [
      labelOf(node),
      node.name,
      node.step,
      node.toolCallId,
      node.prompt,
      node.error && `${node.error.code ?? ''} ${node.error.message}`,
      ...[node.input, shown, node.result, node.messages].map(jsonText),
    ];
    text = parts
      .filter((part) => part !== undefined)
      .join('\n')
      .toLowerCase();
    texts.set(node, text);
  }
  return text;
}

function jsonText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return undefined; // nested too deeply: not searched
  }
}
