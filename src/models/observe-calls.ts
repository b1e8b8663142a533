import type { LanguageModelV4Middleware, LanguageModelV4Usage } from '@ai-sdk/provider';
import type { LanguageModelUsage, TextStreamPart, ToolSet } from 'ai';
import { emptyUsage, sumUsage, usageTotal } from './usage.js';
import { contentParts } from './content-parts.js';
import { mappedStream } from './mapped-stream.js';
import { orphanReasoningRepair } from './orphan-reasoning.js';

/**
 * A model middleware that hands each call's usage, in tokens, to `onUsage` as soon as the
 * provider reports it (its stream's `finish` part, or a generate result), with the answer's
 * provider metadata (which marks a replayed call, and carries its recorded price), repairs a stream's
 * reasoning parts whose start never came ({@link orphanReasoningRepair}); and, with
 * `onGeneratePart`, reports each non-streaming call as a stream's parts would: `start-step`
 * before it, the answer's parts ({@link contentParts}) once it has come, before any tool runs.
 *
 * The AI SDK reports a step's usage only once the tools it called have run, so a run
 * aborted during such a tool would otherwise lose the tokens of a call that did finish.
 *
 * @example
 * ```ts
 * const usages: LanguageModelUsage[] = [];
 * const model = wrapLanguageModel({ model: inner, middleware: observeCalls((usage) => usages.push(usage)) });
 * ```
 */
export function observeCalls(
  onUsage: (usage: LanguageModelUsage, providerMetadata: unknown) => void,
  onGeneratePart?: (part: TextStreamPart<ToolSet>) => void,
): LanguageModelV4Middleware {
  return {
    specificationVersion: 'v4',
    wrapGenerate: async ({ doGenerate }) => {
      onGeneratePart?.({ type: 'start-step' } as TextStreamPart<ToolSet>);
      const result = await doGenerate();
      onUsage(usageOf(result.usage), result.providerMetadata);
      if (onGeneratePart) for (const part of contentParts(result.content)) onGeneratePart(part);
      return result;
    },
    wrapStream: async ({ doStream }) => {
      const { stream, ...rest } = await doStream();
      const repair = orphanReasoningRepair();
      return {
        stream: mappedStream(stream, (part) => {
          if (part.type === 'finish') onUsage(usageOf(part.usage), part.providerMetadata);
          return repair(part);
        }),
        ...rest,
      };
    },
  };
}

/** A provider's usage as the AI SDK reports it (without the provider's `raw` counts). */
export function usageOf(usage: LanguageModelV4Usage): LanguageModelUsage {
  return sumUsage(emptyUsage(), {
    inputTokens: usage.inputTokens.total,
    inputTokenDetails: {
      noCacheTokens: usage.inputTokens.noCache,
      cacheReadTokens: usage.inputTokens.cacheRead,
      cacheWriteTokens: usage.inputTokens.cacheWrite,
    },
    outputTokens: usage.outputTokens.total,
    outputTokenDetails: {
      textTokens: usage.outputTokens.text,
      reasoningTokens: usage.outputTokens.reasoning,
    },
    totalTokens: usageTotal({
      inputTokens: usage.inputTokens.total,
      outputTokens: usage.outputTokens.total,
    }),
  });
}
