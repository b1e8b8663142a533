import { setImmediate as nextTurn } from 'node:timers/promises';

/** Chunks a {@link pacedStream} hands over between two turns of the event loop. */
export const PACED_STREAM_BATCH = 256;

/**
 * A stream of chunks that are all at hand (a scripted answer, a recorded one), handed over
 * `batch` at a time with a turn of the event loop in between.
 *
 * Why: the AI SDK's `streamText` copies a model's stream into a queue of its own as fast as
 * the stream gives (it does not wait for its reader), and a web stream's queue gives its head
 * back with `Array#shift`, which costs the queue's length once the queue is large. A stream
 * that gives everything at once (a 5 MB answer is some 800,000 word deltas) made reading it
 * quadratic. Between two turns of the event loop the reader drains what was queued, so the
 * queue never holds more than `batch` chunks and reading stays linear. A model behind a
 * network never fills the queue that fast; this is for answers already in memory.
 *
 * @param chunks - the parts, in order; read lazily (the array is not copied).
 * @param batch - chunks per turn of the event loop. @default PACED_STREAM_BATCH
 */
export function pacedStream<T>(
  chunks: readonly T[],
  batch = PACED_STREAM_BATCH,
): ReadableStream<T> {
  let index = 0;
  return new ReadableStream<T>({
    async pull(controller) {
      if (index > 0 && index % batch === 0) await nextTurn();
      if (index < chunks.length) controller.enqueue(chunks[index++]!);
      else controller.close();
    },
  });
}
