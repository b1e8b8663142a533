import type { LanguageModelV4Middleware } from '@ai-sdk/provider';
import { wrapLanguageModel, type LanguageModel } from 'ai';
import { resolveModel } from './resolve-model.js';

/**
 * `model`, whatever its specification ({@link resolveModel}), wrapped with `middleware`.
 *
 * @throws {WorkflowError} `model-spec-unsupported` or `model-invalid` (see {@link resolveModel}).
 * @example
 * ```ts
 * const model = withMiddleware(agentModel, explainDenials);
 * ```
 */
export function withMiddleware(
  model: LanguageModel,
  middleware: LanguageModelV4Middleware,
  shown?: string,
): LanguageModel {
  return wrapLanguageModel({ model: resolveModel(model, shown), middleware });
}
