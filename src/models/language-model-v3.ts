import type { LanguageModelV3 } from '@ai-sdk/provider';
import { gateway, type LanguageModel } from 'ai';

/**
 * The model as a `LanguageModelV3`: a model id string is resolved as the AI SDK resolves it
 * (the global default provider, else the gateway); `undefined` for a model of the older `v2`
 * specification, which middleware cannot wrap.
 *
 * @example
 * ```ts
 * const v3 = languageModelV3(agent.model);
 * const wrapped = v3 ? wrapLanguageModel({ model: v3, middleware }) : agent.model;
 * ```
 */
export function languageModelV3(model: LanguageModel): LanguageModelV3 | undefined {
  if (typeof model === 'string')
    return (globalThis.AI_SDK_DEFAULT_PROVIDER ?? gateway).languageModel(model) as LanguageModelV3;
  return model.specificationVersion === 'v3' ? model : undefined;
}
