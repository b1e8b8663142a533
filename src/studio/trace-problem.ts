import type { TraceNodeKind, TraceStatus } from '../trace/trace-node.js';

const KINDS: ReadonlySet<TraceNodeKind> = new Set(['run', 'agent', 'step', 'model', 'tool', 'catch']);
const STATUSES: ReadonlySet<TraceStatus> = new Set(['running', 'waiting', 'succeeded', 'failed', 'aborted', 'denied']);

/**
 * Checks that a parsed value has the shape of a June `Trace` (version 1) that Studio can
 * show, walking every node of its tree (not the child runs inside tool outputs).
 *
 * Returns `undefined` for a trace, or the first problem as a sentence naming the JSON path
 * (`root.children[2].kind`), the value found and what is allowed. It never throws, and it
 * walks without recursion, so a deep or huge tree is fine.
 *
 * @example
 * ```ts
 * traceProblem({ version: 2 }); // 'version is 2; Studio reads version 1 traces'
 * traceProblem(JSON.parse(text)) === undefined; // a trace
 * ```
 */
export function traceProblem(value: unknown): string | undefined {
  if (!isObject(value)) return `the file holds ${describe(value)}, not a trace object`;
  if (value.version !== 1) return `version is ${describe(value.version)}; Studio reads version 1 traces`;
  if (typeof value.runId !== 'string') return `runId is ${describe(value.runId)}, not a string`;
  if (!STATUSES.has(value.status as TraceStatus)) return `status is ${describe(value.status)}; expected one of ${[...STATUSES].join(', ')}`;
  if (typeof value.startedAt !== 'string') return `startedAt is ${describe(value.startedAt)}, not an ISO 8601 string`;
  const stack: Array<{ node: unknown; path: string }> = [{ node: value.root, path: 'root' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    const problem = nodeProblem(node, path);
    if (problem) return problem;
    const children = (node as { children: unknown[] }).children;
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], path: `${path}.children[${i}]` });
  }
  return undefined;
}

function nodeProblem(node: unknown, path: string): string | undefined {
  if (!isObject(node)) return `${path} is ${describe(node)}, not a trace node`;
  if (typeof node.id !== 'string') return `${path}.id is ${describe(node.id)}, not a string`;
  if (!KINDS.has(node.kind as TraceNodeKind)) return `${path}.kind is ${describe(node.kind)}; expected one of ${[...KINDS].join(', ')}`;
  if (typeof node.name !== 'string') return `${path}.name is ${describe(node.name)}, not a string`;
  if (!STATUSES.has(node.status as TraceStatus)) return `${path}.status is ${describe(node.status)}; expected one of ${[...STATUSES].join(', ')}`;
  if (typeof node.startedAt !== 'string') return `${path}.startedAt is ${describe(node.startedAt)}, not an ISO 8601 string`;
  if (!Array.isArray(node.children)) return `${path}.children is ${describe(node.children)}, not an array`;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  return String(value);
}
