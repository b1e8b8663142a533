import type { Tool } from 'ai';

/** What an AI SDK tool's `toModelOutput` gives the model (the AI SDK's `ToolResultOutput`). */
export type ToolModelOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/**
 * The AI SDK's `toModelOutput` of a tool, as {@link omitFromModel} makes it: what the model
 * is given for a result, while `execute`'s own result stays what events, traces and journals
 * keep.
 */
export type ModelOutputOf<OUTPUT> = (options: { output: OUTPUT }) => ToolModelOutput;

/**
 * A `toModelOutput` for an AI SDK tool that leaves the named fields of its result out of
 * what the model is given, and only there: the tool's events, its trace node and the run's
 * journal keep the whole result. For values that change from run to run while nothing is
 * wrong (a duration, a timestamp, a request id, a temporary path): a model that never sees
 * them asks the same thing in a replay as when the run was recorded, so the replay stays
 * green (see docs/durable-runs.md, "Replays that stay green").
 *
 * An object result goes to the model as JSON without those fields (only top-level fields are
 * left out); a string as text; anything else as JSON. June's `bashTool()` leaves out its
 * `durationMs` this way.
 *
 * @param fields - the names of the result's fields the model does not see.
 * @example
 * ```ts
 * import { tool } from 'ai';
 * import { omitFromModel } from 'june/tools';
 * import { z } from 'zod';
 *
 * const fetchPage = tool({
 *   description: 'Fetch a page',
 *   inputSchema: z.object({ url: z.string() }),
 *   execute: async ({ url }) => {
 *     const started = Date.now();
 *     const response = await fetch(url);
 *     return { status: response.status, text: await response.text(), elapsedMs: Date.now() - started };
 *   },
 *   // the trace and the journal keep elapsedMs; the model reads { status, text }
 *   toModelOutput: omitFromModel('elapsedMs'),
 * });
 * ```
 */
export function omitFromModel<OUTPUT = unknown>(...fields: string[]): ModelOutputOf<OUTPUT> {
  const omitted = new Set(fields);
  return ({ output }) => {
    if (typeof output === 'string') return { type: 'text', value: output };
    if (typeof output !== 'object' || output === null || Array.isArray(output))
      return { type: 'json', value: (output ?? null) as never };
    const kept = Object.fromEntries(Object.entries(output).filter(([name]) => !omitted.has(name)));
    return { type: 'json', value: kept as never };
  };
}
