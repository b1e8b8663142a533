// The one model every contender gets: the AI SDK's `MockLanguageModelV4` answering at once,
// both streamed (doStream) and generated (doGenerate), from the same decision. The model is
// stateless: it reads the prompt, counts the tool results since the last user message, and
// calls `toolName` until it has `callsPerStep` results, then answers with text. So any
// framework that keeps the conversation gets the same turns, and a run can share one model.
// A call's id counts the tool results in the whole prompt, so ids never repeat within one
// conversation (the OpenAI Agents SDK drops an earlier call and result whose id comes again).
//
// `benchModelV3` is the same model as a `MockLanguageModelV3`, for a build of June on an older
// AI SDK (the baseline build on ai@6, which refuses v4 models): the same answers, the same
// parts, only the specification version differs.
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
} from '@ai-sdk/provider';
import { MockLanguageModelV3, MockLanguageModelV4 } from 'ai/test';

/** How the bench model behaves in one step. */
export interface BenchModelOptions {
  /** The tool it calls, one call per turn. */
  toolName?: string;
  /** Tool calls per step before the final text. @default 0 */
  callsPerStep?: number;
  /** The tool call's input for the n-th call (0-based). @default `{ n }` */
  input?: (n: number) => unknown;
  /** The final answer. @default "done" */
  text?: string;
  /** Names the model in {@link modelStats}, to check what the contenders sent. */
  role?: string;
}

/** Per role: model calls so far and the length (in messages) of the last prompt. */
export const modelStats: Record<string, { calls: number; lastPromptMessages: number }> = {};

/** What the model reads of a prompt; V3 and V4 prompts both have this shape. */
type BenchPrompt = LanguageModelV4CallOptions['prompt'] | LanguageModelV3CallOptions['prompt'];

/** One turn's answer: a tool call or the final text (the same in V3 and V4). */
type BenchContent =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: string };

function record(options: BenchModelOptions, prompt: BenchPrompt): void {
  if (!options.role) return;
  const stats = (modelStats[options.role] ??= { calls: 0, lastPromptMessages: 0 });
  stats.calls++;
  stats.lastPromptMessages = prompt.length;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const timestamp = new Date(0);
const response = { id: 'resp', modelId: 'mock-model-id', timestamp };

/** Tool results in the prompt after its last user message: how far this step's loop has gone. */
export function toolResultsSinceUser(prompt: BenchPrompt): number {
  let count = 0;
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i]!;
    if (message.role === 'user') break;
    if (message.role === 'tool')
      for (const part of message.content) if (part.type === 'tool-result') count++;
  }
  return count;
}

/** Tool results in the whole prompt: numbers the next call, so no id repeats in a conversation. */
function toolResults(prompt: BenchPrompt): number {
  let count = 0;
  for (const message of prompt)
    if (message.role === 'tool')
      for (const part of message.content) if (part.type === 'tool-result') count++;
  return count;
}

function answer(options: BenchModelOptions, prompt: BenchPrompt): BenchContent {
  const done = toolResultsSinceUser(prompt);
  const calls = options.callsPerStep ?? 0;
  if (done < calls && options.toolName) {
    const input = options.input ? options.input(done) : { n: done };
    return {
      type: 'tool-call',
      // Unique in the conversation, as a provider's ids are: a framework may drop repeats.
      toolCallId: `call-${toolResults(prompt)}`,
      toolName: options.toolName,
      input: JSON.stringify(input),
    };
  }
  return { type: 'text', text: options.text ?? 'done' };
}

const finishReason = (content: BenchContent) =>
  content.type === 'tool-call'
    ? { unified: 'tool-calls' as const, raw: 'tool_calls' }
    : { unified: 'stop' as const, raw: 'stop' };

/** The parts of one streamed answer, valid as V3 and as V4 stream parts. */
function streamParts(content: BenchContent) {
  const parts: Array<
    | { type: 'stream-start'; warnings: [] }
    | ({ type: 'response-metadata' } & typeof response)
    | { type: 'text-start' | 'text-end'; id: string }
    | { type: 'text-delta'; id: string; delta: string }
    | Extract<BenchContent, { type: 'tool-call' }>
    | { type: 'finish'; finishReason: ReturnType<typeof finishReason>; usage: typeof usage }
  > = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', ...response },
  ];
  if (content.type === 'text') {
    parts.push(
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: content.text },
      { type: 'text-end', id: 't' },
    );
  } else {
    parts.push(content);
  }
  parts.push({ type: 'finish', finishReason: finishReason(content), usage });
  return parts;
}

function streamOf<Part>(parts: readonly Part[]): ReadableStream<Part> {
  return new ReadableStream<Part>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** One generated answer, valid as a V3 and as a V4 generate result. */
function generated(content: BenchContent) {
  return {
    content: [content],
    finishReason: finishReason(content),
    usage,
    warnings: [],
    response,
  };
}

/** A `MockLanguageModelV4` that answers every call at once (see the file header). */
export function benchModel(options: BenchModelOptions = {}): MockLanguageModelV4 {
  const model: MockLanguageModelV4 = new MockLanguageModelV4({
    doStream: async (call): Promise<LanguageModelV4StreamResult> => {
      model.doStreamCalls.length = 0; // the mock records every call; keep memory flat
      record(options, call.prompt);
      const parts = streamParts(answer(options, call.prompt));
      return { stream: streamOf<LanguageModelV4StreamPart>(parts) };
    },
    doGenerate: async (call): Promise<LanguageModelV4GenerateResult> => {
      model.doGenerateCalls.length = 0;
      record(options, call.prompt);
      return generated(answer(options, call.prompt));
    },
  });
  return model;
}

/**
 * The same model as a `MockLanguageModelV3`, for a June built on ai@6 (which runs only v3 and
 * v2 models): the baseline build's contenders get this one.
 */
export function benchModelV3(options: BenchModelOptions = {}): MockLanguageModelV3 {
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doStream: async (call): Promise<LanguageModelV3StreamResult> => {
      model.doStreamCalls.length = 0;
      record(options, call.prompt);
      const parts = streamParts(answer(options, call.prompt));
      return { stream: streamOf<LanguageModelV3StreamPart>(parts) };
    },
    doGenerate: async (call): Promise<LanguageModelV3GenerateResult> => {
      model.doGenerateCalls.length = 0;
      record(options, call.prompt);
      return generated(answer(options, call.prompt));
    },
  });
  return model;
}
