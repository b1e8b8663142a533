import { z } from 'zod';
import type { TraceNodeKind, TraceStatus } from './trace-node.js';

/** The trace file versions this June reads (and Studio shows); it writes the last one. */
export const TRACE_VERSIONS = [1] as const;

/** The kinds of trace node, as a list (see `TraceNodeKind`). */
export const traceNodeKinds = [
  'run',
  'agent',
  'step',
  'model',
  'tool',
  'catch',
  'parallel',
  'branch',
] as const satisfies readonly TraceNodeKind[];

/** Every status a trace or a node can have, as a list (see `TraceStatus`). */
export const traceStatuses = [
  'running',
  'waiting',
  'succeeded',
  'failed',
  'aborted',
  'denied',
] as const satisfies readonly TraceStatus[];

// Each field's message says what is allowed; a problem reads `<path> is <value found><message>`
// (see `traceProblem`), so a message starts with ", not ..." or "; expected ...".
const text = (what = 'a string') => z.string({ error: `, not ${what}` });
const time = () => text('an ISO 8601 string');
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `; expected one of ${values.join(', ')}` });

/**
 * One node of a trace file (a `TraceNode`): the fields every node has, which a reader needs
 * to draw the tree, without walking its `children` (each is checked as a node of its own, so
 * a tree of any depth is checked without recursion). The optional fields (`usage`, `error`,
 * `input`, ...) are not checked, so a 100,000-node trace is checked in well under a second;
 * other fields are allowed (a newer June may add some) and left out of the parsed value.
 *
 * @example
 * ```ts
 * traceNodeSchema.safeParse(trace.root).success; // true
 * ```
 */
export const traceNodeSchema = z.object(
  {
    id: text(),
    kind: oneOf(traceNodeKinds),
    name: text(),
    status: oneOf(traceStatuses),
    startedAt: time(),
    // an array check without a copy: each child is checked as a node of its own
    children: z.custom<unknown[]>((value) => Array.isArray(value), ', not an array'),
  },
  { error: ', not a trace node' },
);

/**
 * A trace file (a `Trace`, as `june run` writes `.june/runs/<runId>.json`) down to its root
 * node; the tree is checked node by node with {@link traceNodeSchema}. `version` is one of
 * {@link TRACE_VERSIONS}.
 *
 * @example
 * ```ts
 * traceSchema.safeParse(JSON.parse(text)).success;
 * ```
 */
export const traceSchema = z.object(
  {
    version: z.literal(TRACE_VERSIONS, {
      error: `; Studio reads version ${TRACE_VERSIONS.join(', ')} traces`,
    }),
    runId: text(),
    workflow: text().optional(),
    forkedFrom: z.looseObject({ runId: text(), record: text() }).optional(),
    status: oneOf(traceStatuses),
    startedAt: time(),
    endedAt: time().optional(),
    root: z.unknown().optional(), // checked node by node: a missing root is a missing node
  },
  { error: ', not a trace object' },
);
