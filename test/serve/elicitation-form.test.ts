// The forms a served run's requests are asked with (MCP elicitation: flat objects of
// primitives) and how a client's reply becomes an answer: a nested input or answer goes as
// JSON text, which the run then checks against the whole schema.
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/approvals/approval-request.js';
import { answerOfReply, elicitationFor } from '../../src/serve/elicitation-form.js';

const request = (input: unknown): ApprovalRequest => ({
  id: 'r1',
  key: 'run/release#0.0',
  tool: 'deploy',
  input,
  step: 'release',
  toolCallId: 'c1',
});

describe('elicitation forms', () => {
  it('asks a nested input as JSON text, and reads an edit from it', () => {
    const schema = {
      type: 'object',
      properties: {
        env: { type: 'string' },
        targets: { type: 'array', items: { type: 'string' } },
      },
    };
    const input = { env: 'prod', targets: ['eu'] };
    const { form, shape } = elicitationFor(request(input), schema);
    expect(form.requestedSchema.properties).toEqual({
      approve: { type: 'boolean', title: 'Approve', default: true },
      reason: { type: 'string', title: 'Reason (told to the model when denied)' },
      input: expect.objectContaining({ type: 'string', default: JSON.stringify(input) }),
    });
    const edited = { env: 'prod', targets: ['eu', 'us'] };
    expect(
      answerOfReply(
        'k',
        shape,
        { action: 'accept', content: { approve: true, input: JSON.stringify(edited) } },
        'ci',
      ),
    ).toEqual({
      answer: { key: 'k', source: 'mcp', answeredBy: 'ci', approved: true, input: edited },
    });
    // unchanged: approved as the model asked, with no edit
    expect(
      answerOfReply(
        'k',
        shape,
        { action: 'accept', content: { approve: true, input: JSON.stringify(input) } },
        'ci',
      ),
    ).toEqual({ answer: { key: 'k', source: 'mcp', answeredBy: 'ci', approved: true } });
    // text that is not JSON is asked again
    expect(
      answerOfReply(
        'k',
        shape,
        { action: 'accept', content: { approve: true, input: '{env' } },
        'ci',
      ),
    ).toEqual({ problem: expect.stringMatching(/^june: the edited input is not JSON/) });
  });

  it('a denial carries its reason; decline denies; cancel answers nothing', () => {
    const { shape } = elicitationFor(request({ env: 'prod' }), {
      type: 'object',
      properties: { env: { type: 'string', enum: ['staging', 'prod'] } },
    });
    expect(
      answerOfReply(
        'k',
        shape,
        { action: 'accept', content: { approve: false, reason: 'not today' } },
        'ci',
      ),
    ).toEqual({
      answer: { key: 'k', source: 'mcp', answeredBy: 'ci', approved: false, reason: 'not today' },
    });
    expect(answerOfReply('k', shape, { action: 'decline' }, 'ci')).toEqual({
      answer: {
        key: 'k',
        source: 'mcp',
        answeredBy: 'ci',
        approved: false,
        reason: 'declined by the MCP client "ci"',
      },
    });
    expect(answerOfReply('k', shape, { action: 'cancel' }, 'ci')).toBeUndefined();
  });

  it('asks a flat object question field by field, and gives the fields as its answer', () => {
    const question: ApprovalRequest = {
      ...request({}),
      tool: 'ask_notes',
      kind: 'question',
      question: {
        prompt: 'Notes?',
        answerSchema: {
          type: 'object',
          properties: {
            title: { type: 'string', minLength: 1 },
            count: { type: 'integer', minimum: 0 },
          },
          required: ['title'],
        },
      },
    };
    const { form, shape } = elicitationFor(question, undefined);
    expect(form).toEqual({
      message: 'Notes?',
      requestedSchema: {
        type: 'object',
        properties: {
          title: { type: 'string', minLength: 1 },
          count: { type: 'integer', minimum: 0 },
        },
        required: ['title'],
      },
    });
    expect(
      answerOfReply('k', shape, { action: 'accept', content: { title: 'Faster', count: 2 } }, 'ci'),
    ).toEqual({
      answer: {
        key: 'k',
        source: 'mcp',
        answeredBy: 'ci',
        approved: false,
        output: { title: 'Faster', count: 2 },
      },
    });
  });
});
