import type { LanguageModelV3Middleware } from '@ai-sdk/provider';
import { wrapLanguageModel, type LanguageModel } from 'ai';
import { languageModelV3 } from '../models/language-model-v3.js';

/**
 * `model` wrapped with `middleware` (a model id string is resolved first); a model of the
 * older `v2` specification is returned as it is, since middleware cannot wrap it.
 *
 * @example
 * ```ts
 * const model = withMiddleware(agentModel, explainDenials);
 * ```
 */
export function withMiddleware(
  model: LanguageModel,
  middleware: LanguageModelV3Middleware,
): LanguageModel {
  const v3 = languageModelV3(model);
  return v3 ? wrapLanguageModel({ model: v3, middleware }) : model;
}
