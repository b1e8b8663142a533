import type { LanguageModel } from 'ai';
import { withMiddleware } from './with-middleware.js';

/**
 * The AI SDK call settings a fork may change for a model's calls from its fork point on
 * (`<Agent temperature maxOutputTokens ...>` are the same settings).
 */
export interface ModelCallSettings {
  temperature?: number;
  maxOutputTokens?: number;
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  stopSequences?: string[];
}

/** The names of {@link ModelCallSettings}, for checking what a fork was given. */
export const MODEL_CALL_SETTINGS = [
  'temperature',
  'maxOutputTokens',
  'topP',
  'topK',
  'presencePenalty',
  'frequencyPenalty',
  'seed',
  'stopSequences',
] as const;

/**
 * `model` whose calls, from its `from`-th on (0-based, in the order they are made), are made
 * with `settings` in place of the agent's: the calls before keep their requests as they were
 * (a fork's recorded prefix is answered from its record, which a changed request would not
 * match). Put it outside the durable engine's wrapper, so the changed requests are the ones
 * recorded.
 *
 * @example
 * ```ts
 * const model = settingsFrom(stepModel, 2, { temperature: 0.2 });
 * ```
 */
export function settingsFrom(
  model: LanguageModel,
  from: number,
  settings: ModelCallSettings,
): LanguageModel {
  let made = 0;
  return withMiddleware(model, {
    specificationVersion: 'v4',
    transformParams: async ({ params }) => (made++ >= from ? { ...params, ...settings } : params),
  });
}
