import type { LanguageModelV4Usage } from '@ai-sdk/provider';

/**
 * Builds a `LanguageModelV4Usage` (the shape a model reports per call) from two token counts,
 * with no cache reads, cache writes or reasoning tokens.
 *
 * @param inputTokens - tokens read by the call.
 * @param outputTokens - tokens written by the call, all of them text.
 * @example
 * ```ts
 * import { mockUsage } from 'june/testing';
 * const usage = mockUsage(120, 8); // usage.inputTokens.total === 120
 * ```
 */
export function mockUsage(inputTokens: number, outputTokens: number): LanguageModelV4Usage {
  return {
    inputTokens: {
      total: inputTokens,
      noCache: inputTokens,
      cacheRead: undefined,
      cacheWrite: undefined,
    },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}
