import type { LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { mockUsage } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { uniqueCallIds } from '../../src/models/unique-call-ids.js';
import { withMiddleware } from '../../src/models/with-middleware.js';

const finish: LanguageModelV4StreamPart = {
  type: 'finish',
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage: mockUsage(1, 1),
};

function call(toolCallId: string, text: string) {
  return {
    type: 'tool-call' as const,
    toolCallId,
    toolName: 'echo',
    input: JSON.stringify({ text }),
  };
}

async function streamedParts(parts: LanguageModelV4StreamPart[]) {
  const model = new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream({
        start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()),
      }),
    }),
  });
  const wrapped = withMiddleware(model, uniqueCallIds);
  const { stream } = await (wrapped as MockLanguageModelV4).doStream({ prompt: [] });
  const read: LanguageModelV4StreamPart[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read())
    read.push(next.value);
  return read;
}

describe('uniqueCallIds', () => {
  it('a streamed answer: the repeated call and its input parts get one new id; a genuine id equal to a new one is renamed too', async () => {
    const parts = await streamedParts([
      { type: 'stream-start', warnings: [] },
      { type: 'tool-input-start', id: 'dup', toolName: 'echo' },
      { type: 'tool-input-delta', id: 'dup', delta: '{"text":"a"}' },
      { type: 'tool-input-end', id: 'dup' },
      call('dup', 'a'),
      { type: 'tool-input-start', id: 'dup', toolName: 'echo' },
      { type: 'tool-input-delta', id: 'dup', delta: '{"text":"b"}' },
      { type: 'tool-input-end', id: 'dup' },
      call('dup', 'b'),
      call('dup_2', 'c'),
      finish,
    ]);
    expect(
      parts.map((part) =>
        part.type === 'tool-call'
          ? `call ${part.toolCallId}`
          : 'id' in part && part.type.startsWith('tool-input')
            ? `${part.type} ${part.id}`
            : part.type,
      ),
    ).toEqual([
      'stream-start',
      'tool-input-start dup',
      'tool-input-delta dup',
      'tool-input-end dup',
      'call dup',
      'tool-input-start dup_2',
      'tool-input-delta dup_2',
      'tool-input-end dup_2',
      'call dup_2',
      'call dup_2_2',
      'finish',
    ]);
  });

  it('distinct ids pass as they are, the same objects', async () => {
    const a = call('a', 'x');
    const b = call('b', 'y');
    const parts = await streamedParts([{ type: 'stream-start', warnings: [] }, a, b, finish]);
    expect(parts[1]).toBe(a);
    expect(parts[2]).toBe(b);
  });

  it('a generated answer: the AI SDK sees two calls with two ids', async () => {
    const content: LanguageModelV4Content[] = [call('dup', 'a'), call('dup', 'b')];
    const model = new MockLanguageModelV4({
      doGenerate: async () => ({
        content,
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: mockUsage(1, 1),
        warnings: [],
      }),
    });
    const result = await generateText({
      model: withMiddleware(model, uniqueCallIds),
      prompt: 'Go',
    });
    expect(result.toolCalls.map((c) => [c.toolCallId, c.input])).toEqual([
      ['dup', { text: 'a' }],
      ['dup_2', { text: 'b' }],
    ]);
  });
});
