import { describe, expect, it } from 'vitest';
import { answerSchemaSummary } from '../../src/approvals/answer-schema-summary.js';

describe('answerSchemaSummary', () => {
  it('says what an answer must be in one line: a choice, a type, a form with its optional fields', () => {
    expect(answerSchemaSummary({ type: 'string', enum: ['staging', 'prod'] })).toBe(
      'one of "staging"|"prod"',
    );
    expect(answerSchemaSummary({ type: 'integer', minimum: 1 })).toBe('integer');
    expect(
      answerSchemaSummary({
        type: 'object',
        properties: {
          title: { type: 'string' },
          highlights: { type: 'array', items: { type: 'string' } },
          meta: { type: 'object', properties: { a: { type: 'string' } } },
        },
        required: ['title'],
      }),
    ).toBe('{ title: string, highlights?: string[], meta?: object }');
    expect(answerSchemaSummary({})).toBe('any JSON');
  });
});
