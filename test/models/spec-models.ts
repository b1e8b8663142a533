// Models of each provider specification June takes in (v4, v3, v2), answering by the request
// alone (so a fresh copy answers a resumed run as the first one would): a tool call when the
// prompt does not end with tool results, else text. They count their calls.
import type {
  LanguageModelV2,
  LanguageModelV2StreamPart,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3, MockLanguageModelV4 } from 'ai/test';

export type Spec = 'v4' | 'v3' | 'v2';

/** One turn of a spec model: call `tool` with `input`, or say `text`. */
export type SpecTurn = { tool: string; input: unknown; id: string } | { text: string };

/** What a spec model answers to a prompt: its turn, by what the prompt ends with. */
export type TurnOf = (prompt: Array<{ role: string; content: unknown }>, step: string) => SpecTurn;

/** A model of `spec` answering with `turnOf`, and how many calls it answered (`calls.length`). */
export function specModel(spec: Spec, turnOf: TurnOf) {
  const calls: string[] = [];
  const turn = (options: LanguageModelV4CallOptions | LanguageModelV3CallOptions) => {
    const step = String((options.providerOptions?.june as { step?: unknown } | undefined)?.step);
    calls.push(step);
    return turnOf(options.prompt as Array<{ role: string; content: unknown }>, step);
  };
  if (spec === 'v4') {
    const model = new MockLanguageModelV4({
      modelId: 'spec-v4',
      doStream: async (options) => ({ stream: stream(v4Parts(turn(options))) }),
      doGenerate: async (options) => v4Result(turn(options)),
    });
    return Object.assign(model, { calls });
  }
  if (spec === 'v3') {
    const model = new MockLanguageModelV3({
      modelId: 'spec-v3',
      doStream: async (options) => ({ stream: stream(v3Parts(turn(options))) }),
      doGenerate: async (options) => v3Result(turn(options)),
    });
    return Object.assign(model, { calls });
  }
  const model: LanguageModelV2 & { calls: string[] } = {
    specificationVersion: 'v2',
    provider: 'hand',
    modelId: 'spec-v2',
    supportedUrls: {},
    calls,
    doStream: async (options) => ({ stream: stream(v2Parts(turn(options as never))) }),
    doGenerate: async (options) => v2Result(turn(options as never)),
  };
  return model;
}

/** Calls `tool` first (with `input`), then, once the prompt ends with its result, says `text`. */
export function toolThenText(tool: string, input: unknown, text: string): TurnOf {
  return (prompt) =>
    prompt.at(-1)?.role === 'tool' ? { text } : { tool, input, id: `call_${tool}` };
}

function stream<T>(chunks: T[]): ReadableStream<T> {
  return simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null });
}

const v4Usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

function v4Parts(turn: SpecTurn): LanguageModelV4StreamPart[] {
  if ('text' in turn)
    return [
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: turn.text },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: v4Usage },
    ];
  return [
    {
      type: 'tool-call',
      toolCallId: turn.id,
      toolName: turn.tool,
      input: JSON.stringify(turn.input),
    },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage: v4Usage },
  ];
}

function v4Result(turn: SpecTurn) {
  return 'text' in turn
    ? {
        content: [{ type: 'text' as const, text: turn.text }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage: v4Usage,
        warnings: [],
      }
    : {
        content: [
          {
            type: 'tool-call' as const,
            toolCallId: turn.id,
            toolName: turn.tool,
            input: JSON.stringify(turn.input),
          },
        ],
        finishReason: { unified: 'tool-calls' as const, raw: undefined },
        usage: v4Usage,
        warnings: [],
      };
}

// v3 and v4 share these shapes for text and tool calls
const v3Parts = (turn: SpecTurn) => v4Parts(turn) as LanguageModelV3StreamPart[];
const v3Result = v4Result;

function v2Parts(turn: SpecTurn): LanguageModelV2StreamPart[] {
  const usage = { inputTokens: 3, outputTokens: 2, totalTokens: 5 };
  if ('text' in turn)
    return [
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: turn.text },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: 'stop', usage },
    ];
  return [
    {
      type: 'tool-call',
      toolCallId: turn.id,
      toolName: turn.tool,
      input: JSON.stringify(turn.input),
    },
    { type: 'finish', finishReason: 'tool-calls', usage },
  ];
}

function v2Result(turn: SpecTurn) {
  const usage = { inputTokens: 3, outputTokens: 2, totalTokens: 5 };
  return 'text' in turn
    ? {
        content: [{ type: 'text' as const, text: turn.text }],
        finishReason: 'stop' as const,
        usage,
        warnings: [],
      }
    : {
        content: [
          {
            type: 'tool-call' as const,
            toolCallId: turn.id,
            toolName: turn.tool,
            input: JSON.stringify(turn.input),
          },
        ],
        finishReason: 'tool-calls' as const,
        usage,
        warnings: [],
      };
}
