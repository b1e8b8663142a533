import type { LanguageModelUsage, LanguageModel, TextStreamPart, ToolSet } from 'ai';
import { explainDenials } from '../models/explain-denials.js';
import { observeCalls } from '../models/observe-calls.js';
import { uniqueCallIds } from '../models/unique-call-ids.js';
import { withMiddleware } from '../models/with-middleware.js';

/** What {@link stepModel} reports of each model call. */
export interface StepModelOptions {
  /**
   * Each call's usage, in tokens, as soon as the provider reports it, with the answer's
   * provider metadata ({@link observeCalls}).
   */
  onUsage: (usage: LanguageModelUsage, providerMetadata: unknown) => void;
  /**
   * Given, each call of the provider's non-streaming path (`doGenerate`) is also reported as
   * the parts a stream would have given: `start-step` before the call, then, once the whole
   * answer has come, its text as one `text-delta` per text part and a `tool-call` per call.
   */
  onGeneratePart?: (part: TextStreamPart<ToolSet>) => void;
  /**
   * Wraps the model between the two middlewares: a journal, which keeps the request as June
   * made it, before the denials are reworded.
   */
  inner?: (model: LanguageModel) => LanguageModel;
  /**
   * Wraps the whole model, outside both middlewares: a call it holds back is not reported
   * (no `start-step`) until it lets it start.
   */
  outer?: (model: LanguageModel) => LanguageModel;
}

/**
 * The model a step calls, whatever its provider specification: denied tool calls explained to
 * the model ({@link explainDenials}), the tool calls of each answer given distinct ids as the
 * provider's answer comes in ({@link uniqueCallIds}: below `inner`, so a journal records them
 * so and a resume or replay reads the same ids), and each call reported ({@link observeCalls}).
 *
 * @throws {WorkflowError} `model-spec-unsupported` or `model-invalid` for a model June cannot run.
 * @example
 * ```ts
 * const model = stepModel(agentModel, { onUsage: (usage) => usages.push(usage), inner: (m) => journal.model(m, place) });
 * ```
 */
export function stepModel(model: LanguageModel, options: StepModelOptions): LanguageModel {
  const observe = observeCalls(options.onUsage, options.onGeneratePart);
  const door = withMiddleware(model, { ...explainDenials, ...uniqueCallIds });
  const observed = withMiddleware(options.inner ? options.inner(door) : door, observe);
  return options.outer ? options.outer(observed) : observed;
}
