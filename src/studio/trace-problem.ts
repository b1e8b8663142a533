import type { TraceNodeKind, TraceStatus } from '../trace/trace-node.js';

const KINDS: ReadonlySet<TraceNodeKind> = new Set([
  'run',
  'agent',
  'step',
  'model',
  'tool',
  'catch',
]);
const STATUSES: ReadonlySet<TraceStatus> = new Set([
  'running',
  'waiting',
  'succeeded',
  'failed',
  'aborted',
  'denied',
]);

/**
 * The deepest trace Studio shows, in levels of nodes below the root (within one trace; a
 * composite call's child run is a trace of its own). Deeper files are listed as unreadable.
 */
export const MAX_TRACE_DEPTH = 10_000;

/** A node met on the walk: where it sits, kept as links so a path is spelled out only for a problem. */
interface Place {
  node: unknown;
  parent: Place | undefined;
  index: number;
  depth: number;
}

/**
 * Checks that a parsed value has the shape of a June `Trace` (version 1) that Studio can
 * show, walking every node of its tree (not the child runs inside tool outputs).
 *
 * Returns `undefined` for a trace, or the first problem as a sentence naming the JSON path
 * (`root.children[2].kind`) and what is allowed; a value found is described (`a string of
 * 12 characters`), never quoted, so no content of the file reaches a message. It never
 * throws, and it walks without recursion; a tree nested deeper than
 * {@link MAX_TRACE_DEPTH} levels is a problem.
 *
 * @example
 * ```ts
 * traceProblem({ version: 2 }); // 'version is 2; Studio reads version 1 traces'
 * traceProblem(JSON.parse(text)) === undefined; // a trace
 * ```
 */
export function traceProblem(value: unknown): string | undefined {
  if (!isObject(value)) return `the file holds ${describe(value)}, not a trace object`;
  if (value.version !== 1)
    return `version is ${describe(value.version)}; Studio reads version 1 traces`;
  if (typeof value.runId !== 'string') return `runId is ${describe(value.runId)}, not a string`;
  if (!STATUSES.has(value.status as TraceStatus))
    return `status is ${describe(value.status)}; expected one of ${[...STATUSES].join(', ')}`;
  if (typeof value.startedAt !== 'string')
    return `startedAt is ${describe(value.startedAt)}, not an ISO 8601 string`;
  const stack: Place[] = [{ node: value.root, parent: undefined, index: 0, depth: 0 }];
  while (stack.length > 0) {
    const place = stack.pop()!;
    if (place.depth > MAX_TRACE_DEPTH) {
      return `the tree is nested more than ${MAX_TRACE_DEPTH.toLocaleString('en-US')} levels deep (at ${pathOf(place)}); Studio shows traces up to that depth`;
    }
    const problem = nodeProblem(place.node);
    if (problem) return `${pathOf(place)}${problem}`;
    const children = (place.node as { children: unknown[] }).children;
    for (let i = children.length - 1; i >= 0; i--)
      stack.push({ node: children[i], parent: place, index: i, depth: place.depth + 1 });
  }
  return undefined;
}

/** The JSON path of a node (`root.children[2]`); a deep one is shortened in the middle. */
function pathOf(place: Place): string {
  const steps: string[] = [];
  for (let at: Place | undefined = place; at?.parent; at = at.parent)
    steps.push(`.children[${at.index}]`);
  steps.reverse();
  if (steps.length <= 8) return `root${steps.join('')}`;
  return `root${steps.slice(0, 3).join('')}...(${(steps.length - 6).toLocaleString('en-US')} levels)...${steps.slice(-3).join('')}`;
}

/** What is wrong with one node, as the rest of a sentence that starts with its path. */
function nodeProblem(node: unknown): string | undefined {
  if (!isObject(node)) return ` is ${describe(node)}, not a trace node`;
  if (typeof node.id !== 'string') return `.id is ${describe(node.id)}, not a string`;
  if (!KINDS.has(node.kind as TraceNodeKind))
    return `.kind is ${describe(node.kind)}; expected one of ${[...KINDS].join(', ')}`;
  if (typeof node.name !== 'string') return `.name is ${describe(node.name)}, not a string`;
  if (!STATUSES.has(node.status as TraceStatus))
    return `.status is ${describe(node.status)}; expected one of ${[...STATUSES].join(', ')}`;
  if (typeof node.startedAt !== 'string')
    return `.startedAt is ${describe(node.startedAt)}, not an ISO 8601 string`;
  if (!Array.isArray(node.children)) return `.children is ${describe(node.children)}, not an array`;
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
  if (typeof value === 'string')
    return value === ''
      ? 'an empty string'
      : `a string of ${value.length.toLocaleString('en-US')} characters`;
  return typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : `a ${typeof value}`;
}
