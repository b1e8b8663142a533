// June's own record of a model's answer (src/models/): made from a v4 answer, read back in
// either form, read from what June 0.1 recorded (provider specification v3), and refused when
// it is of a format or specification this June does not know.
import {
  APICallError,
  type LanguageModelV4CallOptions,
  type LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { JuneError, SystemError } from 'june';
import { errorData } from '../../src/errors/index.js';
import { describe, expect, it } from 'vitest';
import {
  answerParts,
  answerResult,
  answerToolCalls,
  failedAnswer,
  failureError,
  generatedAnswer,
  hashModelRequest,
  journaledModel,
  modelRequestOf,
  readModelAnswer,
  streamedAnswer,
} from '../../src/models/index.js';

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};
const finish = { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage } as const;

const errorOf = (make: () => unknown): unknown => {
  try {
    make();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('a recorded answer', () => {
  it('is June’s record of the v4 answer: its version, its spec, its parts (without pings)', () => {
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'ping' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hi' },
      { type: 'text-end', id: 't' },
      finish,
    ];
    expect(streamedAnswer(parts)).toEqual({ version: 1, spec: 'v4', parts: parts.slice(1) });
  });

  it('answers a call in the other mode: parts as a result, a result as parts', () => {
    const streamed = streamedAnswer([
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hel' },
      { type: 'text-delta', id: 't', delta: 'lo' },
      { type: 'text-end', id: 't' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'go', input: '{}' },
      finish,
    ]);
    expect(answerResult(streamed)).toMatchObject({
      content: [
        { type: 'text', text: 'Hello' },
        { type: 'tool-call', toolCallId: 'c1' },
      ],
      finishReason: { unified: 'stop' },
    });
    const generated = generatedAnswer({
      content: [{ type: 'text', text: 'Whole' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    });
    expect(answerParts(generated).map((part) => part.type)).toEqual([
      'stream-start',
      'text-start',
      'text-delta',
      'text-end',
      'finish',
    ]);
    expect(answerToolCalls(streamed)).toEqual([{ toolCallId: 'c1', toolName: 'go' }]);
    expect(answerToolCalls(generated)).toEqual([]);
  });

  it('recorded by June 0.1 (AI SDK 6, spec v3) is read as spec v3 and replays as v4: only files change', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const v3Parts = [
      { type: 'file', mediaType: 'image/png', data: bytes },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'A picture.' },
      { type: 'text-end', id: 't' },
      finish,
    ];
    const read = readModelAnswer({ parts: v3Parts }, 'model call 1 of step "draw"');
    expect(read).toEqual({ version: 1, spec: 'v3', parts: v3Parts });
    const parts = answerParts(read);
    expect(parts[0]).toEqual({
      type: 'file',
      mediaType: 'image/png',
      data: { type: 'data', data: bytes },
    });
    expect(parts.slice(1)).toEqual(v3Parts.slice(1));

    const result = readModelAnswer(
      {
        result: {
          content: [{ type: 'file', mediaType: 'image/png', data: 'AQID' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        },
      },
      'model call 1 of step "draw"',
    );
    expect(result.spec).toBe('v3');
    expect(answerResult(result).content).toEqual([
      { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'AQID' } },
    ]);
  });

  it.each([
    [
      { version: 2, spec: 'v4', parts: [] },
      'it is of the format version 2, and this June reads version 1',
    ],
    [
      { version: 1, spec: 'v9', parts: [] },
      'it holds an answer of the provider specification "v9", and this June reads v4 and v3',
    ],
    [
      { version: 1, spec: 'v4' },
      'it has neither "parts" (a list) nor "result" (an object) nor "error" (a failed call: { name, message })',
    ],
    [
      { version: 1, spec: 'v4', error: { message: 'no name' } },
      'it has neither "parts" (a list) nor "result" (an object) nor "error" (a failed call: { name, message })',
    ],
    ['text', 'it is not an object'],
  ])('that this June cannot read is refused, saying why: %j', (stored, why) => {
    const error = errorOf(() => readModelAnswer(stored, 'model call 2 of step "plan" in run r1'));
    expect(JuneError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'model-answer-unreadable',
      message: `june: the recorded answer of model call 2 of step "plan" in run r1 cannot be read: ${why}. Take the run up again with the June version that recorded it, or start a new run.`,
    });
  });
});

describe('a failed model call, as June records it', () => {
  it('keeps a June error with its code and blame, and throws it again as the same error', () => {
    const thrown = new SystemError('scripted-model-error', 'june: the provider is overloaded');
    const answer = failedAnswer(thrown, 'call');
    expect(answer).toEqual({
      version: 1,
      spec: 'v4',
      error: {
        name: 'SystemError',
        message: 'june: the provider is overloaded',
        code: 'scripted-model-error',
        blame: 'system',
      },
    });
    expect(readModelAnswer(answer, 'model call 1 of step "plan"')).toEqual(answer);
    const again = failureError(answer.error!);
    expect(JuneError.isInstance(again)).toBe(true);
    expect(errorData(again)).toEqual(errorData(thrown));
  });

  it('keeps whether the AI SDK retries a provider error, and throws it again as one it retries at once', () => {
    const thrown = new APICallError({
      message: 'Overloaded',
      url: 'https://api.example.com/v1/responses',
      requestBodyValues: { secret: 'the prompt' },
      statusCode: 529,
      isRetryable: true,
    });
    const answer = failedAnswer(thrown, 'call');
    expect(answer.error).toEqual({
      name: 'AI_APICallError',
      message: 'Overloaded',
      statusCode: 529,
      retryable: true,
    });
    const again = failureError(answer.error!);
    expect(APICallError.isInstance(again)).toBe(true);
    expect(again).toMatchObject({
      name: 'AI_APICallError',
      message: 'Overloaded',
      statusCode: 529,
      isRetryable: true,
      responseHeaders: { 'retry-after-ms': '0' },
    });
    // the AI SDK never retries a stream that failed once begun
    expect(failedAnswer(thrown, 'stream').error).not.toHaveProperty('retryable');
  });

  it('keeps any other error by its name and message', () => {
    const answer = failedAnswer(new TypeError('fetch failed'), 'call');
    expect(answer.error).toEqual({ name: 'TypeError', message: 'fetch failed' });
    expect(errorData(failureError(answer.error!))).toEqual({
      name: 'TypeError',
      message: 'fetch failed',
    });
  });
});

describe('a model request, as June records and hashes it', () => {
  const base = {
    providerOptions: { june: { step: 's' } },
    abortSignal: new AbortController().signal,
    headers: { 'x-secret': 'no' },
  };

  it('keeps no abort signal or headers, and writes file data as June 0.1 recorded it', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const v4 = {
      ...base,
      prompt: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'file', mediaType: 'image/png', data: { type: 'data', data: bytes } },
            {
              type: 'file',
              mediaType: 'image/png',
              data: { type: 'url', url: new URL('https://example.com/a.png') },
            },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'shot',
              output: {
                type: 'content',
                value: [
                  {
                    type: 'file',
                    mediaType: 'image/png',
                    data: { type: 'data', data: bytes },
                  },
                ],
              },
            },
          ],
        },
      ],
    } as unknown as LanguageModelV4CallOptions;
    const asRecordedByJune01 = {
      providerOptions: { june: { step: 's' } },
      prompt: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'file', mediaType: 'image/png', data: { $bytes: 'AQID' } },
            { type: 'file', mediaType: 'image/png', data: 'https://example.com/a.png' },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'shot',
              output: {
                type: 'content',
                value: [{ type: 'file-data', data: 'AQID', mediaType: 'image/png' }],
              },
            },
          ],
        },
      ],
    };
    const request = modelRequestOf(v4);
    expect(request).toEqual(asRecordedByJune01);
    expect(hashModelRequest(request)).toBe(hashModelRequest(asRecordedByJune01));
  });
});

describe('a model that cannot be journaled', () => {
  it('is an error, never a model whose calls go unrecorded', () => {
    const recorder = {
      modelCall: () => {
        throw new Error('never asked');
      },
    };
    const future = { specificationVersion: 'v5', provider: 'p', modelId: 'm' } as never;
    expect(errorOf(() => journaledModel(future, recorder, 'the model of <Agent>'))).toMatchObject({
      code: 'model-spec-unsupported',
      message: expect.stringMatching(/^june: the model of <Agent> \(the model "m" of "p"\)/),
    });
    expect(errorOf(() => journaledModel(42 as never, recorder))).toMatchObject({
      code: 'model-invalid',
      message: expect.stringContaining('is a number, not a language model'),
    });
  });
});
