/**
 * For engine implementations: runs `execute` (a tool's execution) and hands what it gave to `record` before passing it on:
 * `{ output }` once a promise resolves (or an async iterable of outputs ends: its last item),
 * `{ error }` when it throws or rejects. The error is thrown again after `record` settles.
 *
 * @example
 * ```ts
 * return recordedExecution(() => tool.execute(input, options), (outcome) => store.append(runId, { ...record, ...outcome }));
 * ```
 */
export function recordedExecution(
  execute: () => unknown,
  record: (outcome: { output: unknown } | { error: unknown }) => Promise<void>,
): unknown {
  let value: unknown;
  try {
    value = execute();
  } catch (error) {
    return record({ error }).then(() => Promise.reject(error));
  }
  if (isAsyncIterable(value)) return recordLast(value, record);
  return Promise.resolve(value).then(
    async (output) => {
      await record({ output });
      return output;
    },
    async (error: unknown) => {
      await record({ error });
      throw error;
    },
  );
}

/** Passes an async iterable's items on and records the last one (a tool's final output) once it ends. */
async function* recordLast(
  values: AsyncIterable<unknown>,
  record: (outcome: { output: unknown } | { error: unknown }) => Promise<void>,
): AsyncGenerator<unknown> {
  let last: unknown;
  try {
    for await (const value of values) {
      last = value;
      yield value;
    }
  } catch (error) {
    await record({ error });
    throw error;
  }
  await record({ output: last });
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}
