import { jsonSchema, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolAnswerCheck } from '../../src/steps/tool-answer-check.js';

describe('toolAnswerCheck: an answer checked against the tool while it is given', () => {
  it('a zod input schema names each failing field by its JSON path', () => {
    const check = toolAnswerCheck(
      tool({
        inputSchema: z.object({ env: z.enum(['staging', 'prod']), tags: z.array(z.string()) }),
        execute: async () => 'ok',
      }),
    );
    expect(check.input?.({ env: 'staging', tags: [] })).toBeUndefined();
    expect(check.input?.({ env: 'moon', tags: ['a', 1] })).toMatch(/^\$\.env: .*; \$\.tags\[1\]: /);
    expect(check.output).toBeUndefined();
  });

  it('an output schema checks an answer given instead of the tool', () => {
    const check = toolAnswerCheck(
      tool({
        inputSchema: z.object({}),
        outputSchema: z.object({ url: z.string() }),
        execute: async () => ({ url: 'x' }),
      }),
    );
    expect(check.output?.({ url: 'https://x' })).toBeUndefined();
    expect(check.output?.({ link: 'x' })).toMatch(/^\$\.url: /);
  });

  it('an AI SDK jsonSchema() is checked through its validate; without one, anything passes, as the AI SDK lets it', () => {
    const validated = toolAnswerCheck(
      tool({
        inputSchema: jsonSchema<{ n: number }>(
          { type: 'object' },
          {
            validate: (value) =>
              typeof (value as { n?: unknown }).n === 'number'
                ? { success: true, value: value as { n: number } }
                : { success: false, error: new Error('n must be a number') },
          },
        ),
        execute: async () => 'ok',
      }),
    );
    expect(validated.input?.({ n: 1 })).toBeUndefined();
    expect(validated.input?.({ n: 'one' })).toBe('n must be a number');
    const plain = toolAnswerCheck(
      tool({ inputSchema: jsonSchema({ type: 'object' }), execute: async () => 'ok' }),
    );
    expect(plain.input).toBeUndefined();
  });

  it('a schema that checks only asynchronously refuses an edit, saying why', () => {
    const check = toolAnswerCheck(
      tool({
        inputSchema: z.object({ env: z.string().refine(async () => true) }),
        execute: async () => 'ok',
      }),
    );
    expect(check.input?.({ env: 'staging' })).toMatch(/checks values only asynchronously/);
  });
});
