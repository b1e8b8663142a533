import type { TraceError, TraceNode, TraceNodeKind, TraceStatus } from './trace-node.js';
import { errorData } from '../errors/error-data.js';

/** Tool inputs and outputs, results and messages in a trace: their one JSON form (see `jsonForm`). */
export { plainJson } from '../json/json-form.js';

let counter = 0;
/** When each node opened, epoch ms (so closing needs no Date.parse). */
const openedAt = new WeakMap<TraceNode, number>();

/** Opens a node under `parent` (when given), status `running`. */
export function openNode(
  kind: TraceNodeKind,
  name: string,
  parent?: TraceNode,
  fields: Partial<TraceNode> = {},
): TraceNode {
  const now = Date.now();
  const node: TraceNode = {
    id: `n${++counter}`,
    kind,
    name,
    status: 'running',
    startedAt: new Date(now).toISOString(),
    children: [],
    ...fields,
  };
  openedAt.set(node, now);
  parent?.children.push(node);
  return node;
}

/**
 * Closes a node with its final status; the duration is measured from `startedAt`, in ms.
 * When an error is passed (even a thrown `undefined`), the node records it.
 */
export function closeNode(
  node: TraceNode,
  status: TraceStatus,
  ...error: [thrown?: unknown]
): void {
  if (node.endedAt) return;
  const ended = Date.now();
  node.status = status;
  node.endedAt = new Date(ended).toISOString();
  node.durationMs = ended - (openedAt.get(node) ?? Date.parse(node.startedAt));
  if (error.length > 0) node.error = traceError(error[0]);
}

/** An error as plain data for a trace (see {@link errorData}: credentials removed, no blame). */
export function traceError(error: unknown): TraceError {
  const { blame: _blame, ...data } = errorData(error);
  return data;
}
