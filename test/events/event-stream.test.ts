import { describe, expect, it } from 'vitest';
import { EventStream, type EventJoining } from '../../src/events/event-stream.js';

type Event = { type: 'text'; delta: string } | { type: 'mark'; name: string };
const joinTexts: EventJoining<Event> = {
  canJoin: (first, next) => first.type === 'text' && next.type === 'text',
  join: (events) => ({
    type: 'text',
    delta: events.map((e) => (e as { delta: string }).delta).join(''),
  }),
};

async function readAll<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const seen: T[] = [];
  for await (const event of stream) seen.push(event);
  return seen;
}

describe('EventStream', () => {
  it('gives a reader that reads from the start every event as pushed, and ends on close', async () => {
    const stream = new EventStream<Event>(joinTexts);
    const reading = readAll(stream);
    stream.push({ type: 'mark', name: 'start' });
    await Promise.resolve();
    stream.push({ type: 'text', delta: 'a ' });
    stream.push({ type: 'text', delta: 'b' });
    stream.push({ type: 'mark', name: 'end' });
    stream.close();
    expect(await reading).toEqual([
      { type: 'mark', name: 'start' },
      { type: 'text', delta: 'a ' },
      { type: 'text', delta: 'b' },
      { type: 'mark', name: 'end' },
    ]);
  });

  it('replays a late reader the text it missed joined, then every event as it comes', async () => {
    const stream = new EventStream<Event>(joinTexts);
    stream.push({ type: 'mark', name: 'start' });
    for (const delta of ['one ', 'two ', 'three']) stream.push({ type: 'text', delta });
    const late = readAll(stream);
    await new Promise((resolve) => setImmediate(resolve));
    stream.push({ type: 'text', delta: ' four' });
    stream.push({ type: 'mark', name: 'end' });
    stream.close();
    expect(await late).toEqual([
      { type: 'mark', name: 'start' },
      { type: 'text', delta: 'one two three' },
      { type: 'text', delta: ' four' },
      { type: 'mark', name: 'end' },
    ]);
    // a reader after the end gets the same history (what was joined for the first late reader stays so)
    expect(await readAll(stream)).toEqual([
      { type: 'mark', name: 'start' },
      { type: 'text', delta: 'one two three' },
      { type: 'text', delta: ' four' },
      { type: 'mark', name: 'end' },
    ]);
  });

  it('keeps one history entry for a long run of deltas, and several readers see the same text', async () => {
    const stream = new EventStream<Event>(joinTexts);
    const early = readAll(stream);
    for (let i = 0; i < 10_000; i++) stream.push({ type: 'text', delta: 'x' });
    stream.close();
    const [first, late] = await Promise.all([early, readAll(stream)]);
    expect(first).toHaveLength(10_000);
    expect(late).toEqual([{ type: 'text', delta: 'x'.repeat(10_000) }]);
  });

  it('keeps a bounded history: a reader that starts late on a very long run begins with the oldest event kept', async () => {
    const stream = new EventStream<Event>(joinTexts, 3);
    const early = readAll(stream);
    for (let i = 0; i < 8; i++) {
      stream.push({ type: 'mark', name: `m${i}` });
      stream.push({ type: 'text', delta: `${i}a ` });
      stream.push({ type: 'text', delta: `${i}b` });
    }
    const late = await (async () => {
      const seen: Event[] = [];
      for await (const event of stream) {
        seen.push(event);
        if (event.type === 'text' && event.delta === '7a 7b') break;
      }
      return seen;
    })();
    stream.close();
    expect(await early).toHaveLength(24);
    // at least the last 3 history entries, at most 6 (dropped in batches); the last text joined
    expect(late.length).toBeGreaterThanOrEqual(3);
    expect(late.length).toBeLessThanOrEqual(6);
    expect(late.slice(-3)).toEqual([
      { type: 'text', delta: '6a 6b' },
      { type: 'mark', name: 'm7' },
      { type: 'text', delta: '7a 7b' },
    ]);
  });

  it('stops feeding a reader that broke out of its loop', async () => {
    const stream = new EventStream<Event>();
    stream.push({ type: 'mark', name: 'a' });
    for await (const event of stream) {
      expect(event).toEqual({ type: 'mark', name: 'a' });
      break;
    }
    stream.push({ type: 'mark', name: 'b' });
    stream.close();
    expect(await readAll(stream)).toEqual([
      { type: 'mark', name: 'a' },
      { type: 'mark', name: 'b' },
    ]);
  });
});
