import { generateText, isStepCount, streamText, tool, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { benchModel, benchModelV3, modelStats } from '../../bench/mock-model.js';

const lookup = tool({
  inputSchema: z.object({ n: z.number() }),
  execute: async ({ n }) => `value ${n}`,
});

/** Two user turns of one conversation, each a loop of tool calls, the history carried. */
async function conversation(model: ReturnType<typeof benchModel | typeof benchModelV3>) {
  const messages: ModelMessage[] = [];
  const texts: string[] = [];
  for (const prompt of ['first', 'second']) {
    messages.push({ role: 'user', content: prompt });
    const result = await generateText({
      model,
      tools: { lookup },
      messages,
      stopWhen: isStepCount(10),
    });
    messages.push(...result.responseMessages);
    texts.push(result.text);
  }
  const callIds = messages.flatMap((m) =>
    m.role === 'assistant' && typeof m.content !== 'string'
      ? m.content.flatMap((p) => (p.type === 'tool-call' ? [p.toolCallId] : []))
      : [],
  );
  return { texts, callIds, roles: messages.map((m) => m.role) };
}

describe('the bench model', () => {
  it('speaks v4, and v3 as benchModelV3, with the same turns', async () => {
    expect(benchModel().specificationVersion).toBe('v4');
    expect(benchModelV3().specificationVersion).toBe('v3');
    const v4 = await conversation(benchModel({ toolName: 'lookup', callsPerStep: 2 }));
    const v3 = await conversation(benchModelV3({ toolName: 'lookup', callsPerStep: 2 }));
    expect(v4.texts).toEqual(['done', 'done']);
    expect(v3).toEqual(v4);
    // per user turn: two calls with their results, then the answer
    expect(v4.roles).toEqual([
      ...['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant'],
      ...['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant'],
    ]);
  });

  it('never repeats a tool call id within one conversation', async () => {
    const { callIds } = await conversation(benchModel({ toolName: 'lookup', callsPerStep: 2 }));
    expect(callIds).toHaveLength(4);
    expect(new Set(callIds).size).toBe(4);
  });

  it('streams the same answers it generates, and counts calls per role', async () => {
    const model = benchModel({ toolName: 'lookup', callsPerStep: 3, role: 'probe' });
    Reflect.deleteProperty(modelStats, 'probe');
    const result = streamText({
      model,
      tools: { lookup },
      prompt: 'go',
      stopWhen: isStepCount(10),
    });
    await result.consumeStream();
    expect(await result.text).toBe('done');
    expect((await result.steps).map((s) => s.finishReason)).toEqual([
      'tool-calls',
      'tool-calls',
      'tool-calls',
      'stop',
    ]);
    expect(modelStats.probe?.calls).toBe(4);
    // the mock keeps no record of its calls (memory stays flat over long runs)
    expect(model.doStreamCalls).toHaveLength(0);
  });
});
