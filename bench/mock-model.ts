// The one model every contender gets: the AI SDK's `MockLanguageModelV3` answering at once,
// both streamed (doStream) and generated (doGenerate), from the same decision. The model is
// stateless: it reads the prompt, counts the tool results since the last user message, and
// calls `toolName` until it has `callsPerStep` results, then answers with text. So any
// framework that keeps the conversation gets the same turns, and a run can share one model.
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

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

function record(options: BenchModelOptions, prompt: LanguageModelV3CallOptions['prompt']): void {
  if (!options.role) return;
  const stats = (modelStats[options.role] ??= { calls: 0, lastPromptMessages: 0 });
  stats.calls++;
  stats.lastPromptMessages = prompt.length;
}

const usage: LanguageModelV3Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const timestamp = new Date(0);

/** Tool results in the prompt after its last user message: how far this step's loop has gone. */
export function toolResultsSinceUser(prompt: LanguageModelV3CallOptions['prompt']): number {
  let count = 0;
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i]!;
    if (message.role === 'user') break;
    if (message.role === 'tool')
      for (const part of message.content) if (part.type === 'tool-result') count++;
  }
  return count;
}

function answer(
  options: BenchModelOptions,
  prompt: LanguageModelV3CallOptions['prompt'],
): LanguageModelV3Content {
  const done = toolResultsSinceUser(prompt);
  const calls = options.callsPerStep ?? 0;
  if (done < calls && options.toolName) {
    const input = options.input ? options.input(done) : { n: done };
    return {
      type: 'tool-call',
      toolCallId: `call-${done}`,
      toolName: options.toolName,
      input: JSON.stringify(input),
    };
  }
  return { type: 'text', text: options.text ?? 'done' };
}

function streamParts(content: LanguageModelV3Content): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: 'resp', modelId: 'mock-model-id', timestamp },
  ];
  if (content.type === 'text') {
    parts.push(
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: content.text },
      { type: 'text-end', id: 't' },
    );
  } else if (content.type === 'tool-call') {
    parts.push(content);
  }
  parts.push({
    type: 'finish',
    finishReason:
      content.type === 'tool-call'
        ? { unified: 'tool-calls', raw: 'tool_calls' }
        : { unified: 'stop', raw: 'stop' },
    usage,
  });
  return parts;
}

/** A `MockLanguageModelV3` that answers every call at once (see the file header). */
export function benchModel(options: BenchModelOptions = {}): MockLanguageModelV3 {
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doStream: async (call): Promise<LanguageModelV3StreamResult> => {
      model.doStreamCalls.length = 0; // the mock records every call; keep memory flat
      record(options, call.prompt);
      const parts = streamParts(answer(options, call.prompt));
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
    doGenerate: async (call): Promise<LanguageModelV3GenerateResult> => {
      model.doGenerateCalls.length = 0;
      record(options, call.prompt);
      const content = answer(options, call.prompt);
      return {
        content: [content],
        finishReason:
          content.type === 'tool-call'
            ? { unified: 'tool-calls', raw: 'tool_calls' }
            : { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
        response: { id: 'resp', modelId: 'mock-model-id', timestamp },
      };
    },
  });
  return model;
}
