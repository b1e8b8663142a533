// Some providers report the finish reason `tool-calls` for a last answer that calls no tool
// (vercel/ai #15349). generateText then parses no output; streamText parses the text anyway.
// A step with an `output` gives the same parsed object in both modes.
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { Output } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Agent, Step, run } from 'june';
import { mockUsage } from 'june/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const answer = JSON.stringify({ version: '1.2.0', risky: false });
const finishReason = { unified: 'tool-calls' as const, raw: 'tool_calls' };

function model() {
  return new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: 'text', text: answer }],
      finishReason,
      usage: mockUsage(10, 5),
      warnings: [],
    }),
    doStream: async () => {
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: answer },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason, usage: mockUsage(10, 5) },
      ];
      return {
        stream: new ReadableStream({
          start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()),
        }),
      };
    },
  });
}

const schema = z.object({ version: z.string(), risky: z.boolean() });

describe('a last answer whose finish reason is tool-calls', () => {
  test.each([
    ['streaming', true],
    ['batch mode', false],
  ])('%s parses the step output from its text', async (_mode, stream) => {
    const result = await run(
      <Agent model={model()}>
        <Step id="plan" prompt="Plan the release" output={Output.object({ schema })} />
      </Agent>,
      { stream },
    ).result;
    expect(result.output).toEqual({ version: '1.2.0', risky: false });
  });
});
