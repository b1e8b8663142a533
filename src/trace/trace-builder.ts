import type { TraceError, TraceNode, TraceNodeKind, TraceStatus } from './trace-node.js';
import { JuneError } from '../errors/june-error.js';

/** Tool inputs and outputs, results and messages in a trace: their one JSON form (see `jsonForm`). */
export { plainJson } from '../json/json-form.js';

let counter = 0;
/** When each node opened, epoch ms (so closing needs no Date.parse). */
const openedAt = new WeakMap<TraceNode, number>();

/** Opens a node under `parent` (when given), status `running`. */
export function openNode(kind: TraceNodeKind, name: string, parent?: TraceNode, fields: Partial<TraceNode> = {}): TraceNode {
  const now = Date.now();
  const node: TraceNode = { id: `n${++counter}`, kind, name, status: 'running', startedAt: new Date(now).toISOString(), children: [], ...fields };
  openedAt.set(node, now);
  parent?.children.push(node);
  return node;
}

/** Closes a node with its final status; the duration is measured from `startedAt`, in ms. */
export function closeNode(node: TraceNode, status: TraceStatus, error?: unknown): void {
  if (node.endedAt) return;
  const ended = Date.now();
  node.status = status;
  node.endedAt = new Date(ended).toISOString();
  node.durationMs = ended - (openedAt.get(node) ?? Date.parse(node.startedAt));
  if (error !== undefined) node.error = traceError(error);
}

/** An error as plain data for a trace. */
export function traceError(error: unknown): TraceError {
  if (error instanceof Error) {
    return JuneError.isInstance(error) ? { name: error.name, message: error.message, code: error.code } : { name: error.name, message: error.message };
  }
  return { name: 'Error', message: String(error) };
}
