import type { LanguageModel } from 'ai';

/** Which provider a model comes from and its id, as the provider names them. */
export interface ModelIdentity {
  /** The provider's id (`openai.responses`, `anthropic.messages`, `gateway`...). */
  provider?: string;
  /** The model id asked for (`gpt-5-mini`). */
  modelId?: string;
}

/**
 * A model's provider and model id, read without resolving or calling it: a model id string
 * goes to the AI SDK's default provider (the Vercel AI Gateway unless set), so its provider
 * is `gateway`; a model object gives its own `provider` and `modelId`.
 *
 * @example
 * ```ts
 * modelIdentity(openai('gpt-5-mini')); // { provider: 'openai.responses', modelId: 'gpt-5-mini' }
 * ```
 */
export function modelIdentity(model: LanguageModel | undefined): ModelIdentity {
  if (model === undefined) return {};
  if (typeof model === 'string') return { provider: 'gateway', modelId: model };
  const { provider, modelId } = model as { provider?: unknown; modelId?: unknown };
  return {
    ...(typeof provider === 'string' ? { provider } : {}),
    ...(typeof modelId === 'string' ? { modelId } : {}),
  };
}
