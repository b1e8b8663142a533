import type { z } from 'zod';
import { traceNodeSchema, traceSchema } from '../trace/trace-schema.js';

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
 * Checks that a parsed value has the shape of a June `Trace` that Studio can show (one of
 * the versions in `TRACE_VERSIONS`), with the trace schemas (`traceSchema` for the file,
 * `traceNodeSchema` for each node of its tree, not the child runs inside tool outputs).
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
  const problem = schemaProblem(traceSchema, value, '');
  if (problem) return problem.startsWith('.') ? problem.slice(1) : problem;
  const stack: Place[] = [{ node: value.root, parent: undefined, index: 0, depth: 0 }];
  while (stack.length > 0) {
    const place = stack.pop()!;
    if (place.depth > MAX_TRACE_DEPTH) {
      return `the tree is nested more than ${MAX_TRACE_DEPTH.toLocaleString('en-US')} levels deep (at ${pathOf(place)}); Studio shows traces up to that depth`;
    }
    const problem = schemaProblem(traceNodeSchema, place.node, pathOf(place));
    if (problem) return problem;
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

/**
 * The first problem `schema` finds in `value`, as a sentence: the JSON path under `path`
 * (`root.children[2].kind`), the value found described, and the schema's message (what is
 * allowed, e.g. `, not a string`).
 */
function schemaProblem(schema: z.ZodType, value: unknown, path: string): string | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  let found: unknown = value;
  let at = path;
  for (const key of issue.path) {
    found = isObject(found) ? found[key as string] : undefined;
    at += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  }
  return `${at} is ${describe(found)}${issue.message}`;
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
