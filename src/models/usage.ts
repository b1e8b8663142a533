import type { LanguageModelUsage } from 'ai';

/** Usage with every count unknown: the start of a sum. */
export function emptyUsage(): LanguageModelUsage {
  return {
    inputTokens: undefined,
    inputTokenDetails: {
      noCacheTokens: undefined,
      cacheReadTokens: undefined,
      cacheWriteTokens: undefined,
    },
    outputTokens: undefined,
    outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
    totalTokens: undefined,
  };
}

const add = (a: number | undefined, b: number | undefined) =>
  a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);

/**
 * Sums two AI SDK usages, in tokens, the way the AI SDK sums a call's steps: a count unknown
 * on both sides stays unknown, otherwise a missing side counts as 0.
 */
export function sumUsage(a: LanguageModelUsage, b: LanguageModelUsage): LanguageModelUsage {
  return {
    inputTokens: add(a.inputTokens, b.inputTokens),
    inputTokenDetails: {
      noCacheTokens: add(a.inputTokenDetails?.noCacheTokens, b.inputTokenDetails?.noCacheTokens),
      cacheReadTokens: add(
        a.inputTokenDetails?.cacheReadTokens,
        b.inputTokenDetails?.cacheReadTokens,
      ),
      cacheWriteTokens: add(
        a.inputTokenDetails?.cacheWriteTokens,
        b.inputTokenDetails?.cacheWriteTokens,
      ),
    },
    outputTokens: add(a.outputTokens, b.outputTokens),
    outputTokenDetails: {
      textTokens: add(a.outputTokenDetails?.textTokens, b.outputTokenDetails?.textTokens),
      reasoningTokens: add(
        a.outputTokenDetails?.reasoningTokens,
        b.outputTokenDetails?.reasoningTokens,
      ),
    },
    totalTokens: add(a.totalTokens, b.totalTokens),
  };
}

/**
 * A usage's total, in tokens: its `totalTokens`, else input plus output when either is known
 * (the other counting as 0); `undefined` when no count is known. The one way June totals a
 * usage (the CLI's lines, a provider's usage as the AI SDK reports it).
 *
 * @example
 * ```ts
 * usageTotal({ inputTokens: 100, outputTokens: 20 }); // 120
 * usageTotal(undefined); // undefined
 * ```
 */
export function usageTotal(
  usage:
    Partial<Pick<LanguageModelUsage, 'inputTokens' | 'outputTokens' | 'totalTokens'>> | undefined,
): number | undefined {
  return usage?.totalTokens ?? add(usage?.inputTokens, usage?.outputTokens);
}

/** Keeps only the JSON-safe token counts (drops the provider's `raw` usage). */
export function plainUsage(usage: LanguageModelUsage): LanguageModelUsage {
  return sumUsage(emptyUsage(), usage);
}
