import { runState } from '../host/run-state.js';
import type { Trace, TraceNode } from '../trace/trace-node.js';
import { RUN_ID_KEY } from './meta-keys.js';
import type { Served } from './served-workflow.js';

/**
 * A tool's output schema is an object: a run's output of another type is given as
 * `{ result }`, so its schema is `{ type: 'object', properties: { result: schema } }`.
 */
export function objectOutputSchema(schema: Record<string, unknown>): { type: 'object' } {
  if (schema.type === 'object') return schema as { type: 'object' };
  return { type: 'object', properties: { result: schema }, required: ['result'] } as never;
}

/**
 * A run's end as an MCP tool result, its run id in `_meta[RUN_ID_KEY]`: for a succeeded run,
 * its output as text and as `structuredContent` (an object as it is, anything else, or any
 * output whose schema is not an object's, as `{ result }`); for a failed or aborted one,
 * `isError` and a `june:` message saying why.
 */
export function resultOf(trace: Trace, s: Served): Record<string, unknown> {
  const meta = { _meta: { [RUN_ID_KEY]: trace.runId } };
  const state = runState(trace);
  if (state === 'succeeded') {
    const output = outputOf(trace);
    const isObject = typeof output === 'object' && output !== null && !Array.isArray(output);
    const wrap = !isObject || (s.outputSchema !== undefined && s.outputSchema.type !== 'object');
    const structured = wrap ? { result: output ?? null } : output;
    const text = typeof output === 'string' ? output : JSON.stringify(output ?? null);
    return { content: [{ type: 'text', text }], structuredContent: structured, ...meta };
  }
  const why = trace.root.error?.message ?? `it ended ${state}`;
  return {
    isError: true,
    content: [
      { type: 'text', text: `june: run "${trace.runId}" ${state}: ${why.replace(/^june: /, '')}` },
    ],
    ...meta,
  };
}

/**
 * A run's output as `run()` makes it by default, read from its trace: its only step's
 * result, or the object of every step's result by step path (the steps of child runs,
 * under tool calls, aside).
 */
export function outputOf(trace: Trace): unknown {
  const steps: Record<string, unknown> = {};
  const stack: TraceNode[] = [trace.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'step' && node.status === 'succeeded')
      steps[node.step ?? node.name] = node.result;
    if (node.kind !== 'tool')
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  const ids = Object.keys(steps);
  return ids.length === 1 ? steps[ids[0]!] : steps;
}
