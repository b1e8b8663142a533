import type { LanguageModelUsage, LanguageModel } from 'ai';
import { explainDenials } from './explain-denials.js';
import { observeUsage } from './observe-usage.js';
import { withMiddleware } from './with-middleware.js';

/**
 * The model a step calls: denied tool calls explained to the model ({@link explainDenials})
 * and each call's usage, in tokens, handed to `onUsage` as soon as the provider reports it
 * ({@link observeUsage}). `inner` wraps the model between the two (a journal, which keeps
 * the request as June made it, before the denials are reworded); without it both
 * middlewares share one wrapper, so a model call goes through one layer, not two.
 *
 * @example
 * ```ts
 * const model = stepModel(agentModel, (usage) => usages.push(usage), (m) => journal.model(m, place));
 * ```
 */
export function stepModel(
  model: LanguageModel,
  onUsage: (usage: LanguageModelUsage) => void,
  inner?: (model: LanguageModel) => LanguageModel,
): LanguageModel {
  if (!inner) return withMiddleware(model, { ...explainDenials, ...observeUsage(onUsage) });
  return withMiddleware(inner(withMiddleware(model, explainDenials)), observeUsage(onUsage));
}
