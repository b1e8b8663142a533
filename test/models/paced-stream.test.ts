import { describe, expect, it } from 'vitest';
import { pacedStream } from '../../src/models/paced-stream.js';

describe('pacedStream', () => {
  it('gives every chunk in order, letting the event loop turn between batches', async () => {
    const chunks = Array.from({ length: 1000 }, (_, i) => i);
    let turns = 0;
    const tick = () => {
      turns++;
      if (turns < 100) setImmediate(tick);
    };
    setImmediate(tick);
    const seen: number[] = [];
    for await (const chunk of pacedStream(chunks, 100)) seen.push(chunk);
    expect(seen).toEqual(chunks);
    // other work ran while the stream was read: it does not hand everything over in one go
    expect(turns).toBeGreaterThanOrEqual(9);
  });

  it('closes at once when there is nothing to give', async () => {
    const seen: unknown[] = [];
    for await (const chunk of pacedStream([])) seen.push(chunk);
    expect(seen).toEqual([]);
  });
});
