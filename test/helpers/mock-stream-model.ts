// Streaming mock models for interpreter tests: `MockLanguageModelV4` (from 'ai/test') whose
// `doStream` answers each call with the next scripted turn, built fresh per call.
//
//   const model = streamModel([
//     { toolCalls: [{ id: 'c1', name: 'weather', input: { city: 'Oslo' } }], usage: [10, 2] },
//     { text: ['It is ', '4C.'], usage: [20, 3] },
//   ]);
//   ... run ...
//   model.doStreamCalls[1].prompt   // what the model saw on its second call
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { mockUsage } from 'june/testing';

/** One scripted model turn. */
export interface MockTurn {
  /** The answer's text; an array streams one delta per element, a string one delta per word. */
  text?: string | string[];
  toolCalls?: Array<{ id: string; name: string; input: unknown }>;
  /** [input tokens, output tokens] @default [10, 5] */
  usage?: [number, number];
  /** The call fails with this error instead of answering. */
  error?: Error;
}

/** A turn, or a function of the call (its options and 0-based index) that returns one. */
export type MockScript =
  MockTurn | ((options: LanguageModelV4CallOptions, index: number) => MockTurn | Promise<MockTurn>);

/** The stream parts of one turn, as a provider would send them. */
export function turnParts(turn: MockTurn): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: 'resp', modelId: 'mock-model-id', timestamp: new Date(0) },
  ];
  if (turn.text !== undefined) {
    const deltas = Array.isArray(turn.text) ? turn.text : turn.text.split(/(?<=\s)(?=\S)/);
    parts.push({ type: 'text-start', id: 't' });
    for (const delta of deltas) parts.push({ type: 'text-delta', id: 't', delta });
    parts.push({ type: 'text-end', id: 't' });
  }
  for (const call of turn.toolCalls ?? []) {
    parts.push({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name,
      input: JSON.stringify(call.input),
    });
  }
  const [input, output] = turn.usage ?? [10, 5];
  parts.push({
    type: 'finish',
    finishReason: turn.toolCalls?.length
      ? { unified: 'tool-calls', raw: 'tool_calls' }
      : { unified: 'stop', raw: 'stop' },
    usage: mockUsage(input, output),
  });
  return parts;
}

function partStream(parts: LanguageModelV4StreamPart[]): ReadableStream<LanguageModelV4StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/**
 * A streaming mock model that answers call n with `script[n]` (a turn or a function of the
 * call). A call past the end of the script fails, naming the call.
 */
export function streamModel(script: MockScript[]): MockLanguageModelV4 {
  const model: MockLanguageModelV4 = new MockLanguageModelV4({
    doStream: async (options): Promise<LanguageModelV4StreamResult> => {
      const index = model.doStreamCalls.length - 1;
      const entry = script[index];
      if (entry === undefined)
        throw new Error(
          `mock model: unscripted call #${index + 1} (the script has ${script.length} turns)`,
        );
      const turn = typeof entry === 'function' ? await entry(options, index) : entry;
      if (turn.error) throw turn.error;
      return { stream: partStream(turnParts(turn)) };
    },
  });
  return model;
}

/** The whole answer of one turn, as a provider's non-streaming call gives it (`doGenerate`). */
export function turnResult(turn: MockTurn): LanguageModelV4GenerateResult {
  const content: LanguageModelV4GenerateResult['content'] = [];
  if (turn.text !== undefined)
    content.push({ type: 'text', text: Array.isArray(turn.text) ? turn.text.join('') : turn.text });
  for (const call of turn.toolCalls ?? [])
    content.push({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name,
      input: JSON.stringify(call.input),
    });
  const [input, output] = turn.usage ?? [10, 5];
  return {
    content,
    finishReason: turn.toolCalls?.length
      ? { unified: 'tool-calls', raw: 'tool_calls' }
      : { unified: 'stop', raw: 'stop' },
    usage: mockUsage(input, output),
    warnings: [],
    response: { id: 'resp', modelId: 'mock-model-id', timestamp: new Date(0) },
  };
}

/**
 * A mock model that answers call n with `script[n]` whichever way it is called: streamed
 * (`doStream`, a run's default) or whole (`doGenerate`, a run with `stream: false`). Its calls
 * of both kinds are counted together in `calls`.
 */
export function scriptModel(script: MockScript[]): MockLanguageModelV4 & { calls: number } {
  let calls = 0;
  const next = async (options: LanguageModelV4CallOptions): Promise<MockTurn> => {
    const index = calls++;
    const entry = script[index];
    if (entry === undefined)
      throw new Error(
        `mock model: unscripted call #${index + 1} (the script has ${script.length} turns)`,
      );
    const turn = typeof entry === 'function' ? await entry(options, index) : entry;
    if (turn.error) throw turn.error;
    return turn;
  };
  const model = new MockLanguageModelV4({
    doStream: async (options) => ({ stream: partStream(turnParts(await next(options))) }),
    doGenerate: async (options) => turnResult(await next(options)),
  });
  return Object.defineProperty(model, 'calls', { get: () => calls }) as MockLanguageModelV4 & {
    calls: number;
  };
}

/**
 * A model whose calls stream `parts` and then hang until the call's abort signal fires, when
 * the stream fails with the abort reason (as `fetch` does).
 */
export function hangingModel(parts: LanguageModelV4StreamPart[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async ({ abortSignal }) => ({
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          const fail = () => controller.error(abortSignal?.reason ?? new Error('aborted'));
          if (abortSignal?.aborted) fail();
          else abortSignal?.addEventListener('abort', fail, { once: true });
        },
      }),
    }),
  });
}

/** The text of every user message in a prompt, in order. */
export function userTexts(prompt: LanguageModelV4Prompt): string[] {
  return prompt.flatMap((message) =>
    message.role === 'user'
      ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
      : [],
  );
}

/** The text of every assistant message in a prompt, in order. */
export function assistantTexts(prompt: LanguageModelV4Prompt): string[] {
  return prompt.flatMap((message) =>
    message.role === 'assistant'
      ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
      : [],
  );
}

/** Every tool-result part of a prompt, in order. */
export function toolResults(prompt: LanguageModelV4Prompt) {
  return prompt.flatMap((message) =>
    message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result') : [],
  );
}
