// One event vocabulary: handle.events yields the run's log events, the ones consumers get,
// and their kinds are listed once, in runEventKinds, which the type agrees with.
import { tool } from 'ai';
import {
  Agent,
  Catch,
  isRunEventType,
  run,
  runEventKinds,
  runEventTypes,
  Step,
  Tool,
  type RunEvent,
  type RunLogEvent,
  type RunLogEventType,
} from 'june';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { streamModel } from '../helpers/mock-stream-model.js';

const weather = tool({
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, tempC: 4 }),
});

function flaky(): string {
  throw new Error('flaky');
}

describe('the run event kinds', () => {
  it('are one list the type agrees with', () => {
    expectTypeOf<keyof typeof runEventKinds>().toEqualTypeOf<RunLogEventType>();
    expectTypeOf<(typeof runEventTypes)[number]>().toEqualTypeOf<RunLogEventType>();
    expectTypeOf<RunEvent>().toEqualTypeOf<RunLogEvent>();
    expect(new Set(runEventTypes).size).toBe(runEventTypes.length);
    expect(runEventTypes).toContain('model-finish');
    expect(isRunEventType('tool-call')).toBe(true);
    expect(isRunEventType('toString')).toBe(false);
    expect(isRunEventType(3)).toBe(false);
    expect(runEventKinds['text-delta']).toEqual({ node: 'model', phase: 'delta' });
  });

  it('handle.events yields what consumers get: every event with its node and time', async () => {
    const model = streamModel([
      { text: 'Checking.', toolCalls: [{ id: 'c1', name: 'weather', input: { city: 'Oslo' } }] },
      { text: 'It is 4C.' },
    ]);
    const consumed: RunLogEvent[] = [];
    const handle = run(
      <Agent model={model}>
        <Tool name="weather" value={weather} />
        <Catch fallback={() => null}>
          <Step id="flaky" prompt={flaky} />
        </Catch>
        <Step id="forecast" prompt="Weather in Oslo?" />
      </Agent>,
      { consumers: [{ event: (event) => consumed.push(event) }] },
    );
    const read: RunLogEvent[] = [];
    for await (const event of handle.events) read.push(event);
    await handle.result;

    // a reader may get consecutive deltas of one model call joined; everything else is the same
    const shape = (events: RunLogEvent[]) => ({
      others: events.filter((event) => event.type !== 'text-delta'),
      text: events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join(''),
    });
    expect(shape(read)).toEqual(shape(consumed));
    for (const event of read) {
      expect(isRunEventType(event.type)).toBe(true);
      expect(event.nodeId).toEqual(expect.any(String));
      expect(event.at).toEqual(expect.any(Number));
      if (runEventKinds[event.type].node !== 'run')
        expect(event.parentId).toEqual(expect.any(String));
    }
    const kinds = new Set(read.map((event) => event.type));
    for (const type of ['model-start', 'model-finish', 'catch-start', 'catch-finish', 'error'])
      expect(kinds).toContain(type);
    // `log` is the same events under its old name
    const logged: RunLogEvent[] = [];
    for await (const event of handle.log) logged.push(event);
    expect(shape(logged)).toEqual(shape(read));
  });
});
