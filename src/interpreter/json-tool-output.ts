import { WorkflowError } from '../errors/june-error.js';
import { jsonForm, type JsonValue } from '../json/json-form.js';
import { isAsyncIterable, isThenable } from '../json/value-kinds.js';

/**
 * What a tool's `execute` gave, in its one JSON form (`jsonForm`), so the model, the events,
 * the trace and the journal all get the same value: a promise settles to the form of its
 * value, an async iterable (preliminary outputs) yields the form of each item, and a value
 * returned at once is converted at once. A tool that gives nothing gives `null` (what the
 * model is sent).
 *
 * @throws {WorkflowError} `tool-output-invalid` (as the execution's rejection, so the AI SDK
 *   hands it to the model as the tool's error and the step goes on) when the output has no
 *   JSON form: a cycle, a function or symbol, or a getter or `toJSON` that throws.
 * @example
 * ```ts
 * const execute = (input, options) => jsonToolOutput(tool.execute(input, options), 'search');
 * ```
 */
export function jsonToolOutput(value: unknown, tool: string): unknown {
  if (isThenable(value)) return Promise.resolve(value).then((output) => outputForm(output, tool));
  if (isAsyncIterable(value)) return eachForm(value, tool);
  return outputForm(value, tool);
}

async function* eachForm(values: AsyncIterable<unknown>, tool: string): AsyncGenerator<JsonValue> {
  for await (const value of values) yield outputForm(value, tool);
}

function outputForm(output: unknown, tool: string): JsonValue {
  const kind = typeof output;
  const form =
    kind === 'function' || kind === 'symbol'
      ? { ok: false as const, problem: `it is a ${kind}` }
      : jsonForm(output);
  if (form.ok) return form.value ?? null;
  const problem = form.problem.replace(/\bvalue\b/, 'output');
  throw new WorkflowError(
    'tool-output-invalid',
    `june: the tool "${tool}" returned a value with no JSON form: ${problem}. Return plain data (objects, arrays, strings, numbers, booleans, null).`,
    { details: { tool, problem } },
  );
}
