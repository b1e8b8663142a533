import { describe, expect, it } from 'vitest';
import { pacedStream } from '../../src/models/paced-stream.js';

async function readAll<T>(stream: ReadableStream<T>): Promise<T[]> {
  const reader = stream.getReader();
  const seen: T[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read())
    seen.push(next.value);
  return seen;
}

describe('pacedStream', () => {
  it('gives every chunk in order, letting the event loop turn between batches', async () => {
    const chunks = Array.from({ length: 1000 }, (_, i) => i);
    let turns = 0;
    const tick = () => {
      turns++;
      if (turns < 100) setImmediate(tick);
    };
    setImmediate(tick);
    expect(await readAll(pacedStream(chunks, 100))).toEqual(chunks);
    // other work ran while the stream was read: it does not hand everything over in one go
    expect(turns).toBeGreaterThanOrEqual(9);
  });

  it('closes at once when there is nothing to give', async () => {
    expect(await readAll(pacedStream([]))).toEqual([]);
  });
});
