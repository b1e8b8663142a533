// Reasoning as providers really send it. The OpenAI Responses API and Bedrock stream
// `reasoning-delta` parts with no `reasoning-start`, which the AI SDK's streamText refuses
// (`reasoning part r not found`); and batch mode, whose answer comes whole, must still tell
// its reasoning as events, as the docs promise every event in both modes.
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { Agent, Step, memoryJournalStore, run, type RunEvent } from 'june';
import { mockUsage } from 'june/testing';
import { describe, expect, test } from 'vitest';

const finish: LanguageModelV4StreamPart = {
  type: 'finish',
  finishReason: { unified: 'stop', raw: 'stop' },
  usage: mockUsage(10, 5),
};

/** A model that streams `parts` on every call. */
function streaming(parts: LanguageModelV4StreamPart[]) {
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream({
        start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()),
      }),
    }),
  });
}

async function reasoningOf(handle: ReturnType<typeof run>) {
  const events: RunEvent[] = [];
  for await (const event of handle.events) events.push(event);
  const result = await handle.result;
  const reasoning = events
    .filter((event) => event.type === 'reasoning-delta')
    .map((event) => (event as { delta: string }).delta)
    .join('');
  return { result, reasoning };
}

describe('reasoning parts', () => {
  test.each([
    [
      'deltas with no reasoning-start, then an end',
      [
        { type: 'reasoning-delta', id: 'r', delta: 'Thinking ' },
        { type: 'reasoning-delta', id: 'r', delta: 'hard.' },
        { type: 'reasoning-end', id: 'r' },
      ],
    ],
    [
      'deltas with neither start nor end',
      [
        { type: 'reasoning-delta', id: 'r', delta: 'Thinking ' },
        { type: 'reasoning-delta', id: 'r', delta: 'hard.' },
      ],
    ],
  ] as const)(
    'streamed %s: the run goes on and tells the reasoning, and replays the same',
    async (_case, reasoning) => {
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        ...(reasoning as unknown as LanguageModelV4StreamPart[]),
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Done.' },
        { type: 'text-end', id: 't' },
        finish,
      ];
      const journal = memoryJournalStore();
      const workflow = (model: MockLanguageModelV4) => (
        <Agent model={model}>
          <Step id="think" prompt="Think, then answer" />
        </Agent>
      );
      const first = await reasoningOf(run(workflow(streaming(parts)), { journal, runId: 'r1' }));
      expect(first.result.output).toBe('Done.');
      expect(first.reasoning).toBe('Thinking hard.');

      const silent = new MockLanguageModelV4({
        doStream: async () => {
          throw new Error('a replay calls no model');
        },
      });
      const recording = await journal.read('r1');
      const replayed = await reasoningOf(run(workflow(silent), { replay: recording }));
      expect(replayed.result.output).toBe('Done.');
      expect(replayed.reasoning).toBe('Thinking hard.');
    },
  );

  test('batch mode tells the reasoning of a whole answer as events', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: async () => ({
        content: [
          { type: 'reasoning', text: 'Weighing it up.' },
          { type: 'text', text: 'Done.' },
        ],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: mockUsage(10, 5),
        warnings: [],
      }),
    });
    const { result, reasoning } = await reasoningOf(
      run(
        <Agent model={model}>
          <Step id="think" prompt="Think, then answer" />
        </Agent>,
        { stream: false },
      ),
    );
    expect(result.output).toBe('Done.');
    expect(reasoning).toBe('Weighing it up.');
  });
});
