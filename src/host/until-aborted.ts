/**
 * The items of `items` until `signal` aborts: the iteration then ends quietly, and `items`
 * is told to stop (`return`). Without a signal, `items` as it is.
 *
 * @example
 * ```ts
 * for await (const event of untilAborted(client.events(runId), AbortSignal.timeout(5000))) show(event);
 * ```
 */
export async function* untilAborted<T>(
  items: AsyncIterable<T>,
  signal: AbortSignal | undefined,
): AsyncGenerator<T> {
  if (!signal) return yield* items;
  const iterator = items[Symbol.asyncIterator]();
  const aborted = new Promise<IteratorResult<T>>((resolveAbort) => {
    const end = () => resolveAbort({ done: true, value: undefined });
    if (signal.aborted) end();
    else signal.addEventListener('abort', end, { once: true });
  });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    void iterator.return?.(undefined)?.catch(() => {});
  }
}
