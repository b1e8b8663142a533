import type { LanguageModelV4 } from '@ai-sdk/provider';

/** What {@link lazyLanguageModel} needs: the model's names, known up front, and how to build it. */
export interface LazyLanguageModelOptions {
  /** The provider id the built model reports, e.g. `"openai.responses"`. */
  provider: string;
  /** The model id, e.g. `"gpt-5-mini"`. */
  modelId: string;
  /**
   * Builds (or returns a cached) real model. Called on every model call, never at creation, so
   * it can read settings such as environment variables that are set after import. It may
   * throw (e.g. a `JuneError` for missing configuration); the model call then rejects with it.
   */
  resolve: () => LanguageModelV4;
}

/**
 * A `LanguageModelV4` that builds the real model only when it is called.
 *
 * `provider` and `modelId` are available at once; `supportedUrls`, `doGenerate` and `doStream`
 * call `options.resolve()` first and delegate to the model it returns. An error thrown by
 * `resolve` becomes the rejection of that call.
 *
 * @example
 * ```tsx
 * const model = lazyLanguageModel({
 *   provider: 'openai.responses',
 *   modelId: 'gpt-5-mini',
 *   resolve: () => createOpenAI({ baseURL: process.env.MY_BASE_URL })('gpt-5-mini'),
 * });
 * <Agent model={model} instructions="Be brief." />;
 * ```
 */
export function lazyLanguageModel(options: LazyLanguageModelOptions): LanguageModelV4 {
  const { provider, modelId, resolve } = options;
  return {
    specificationVersion: 'v4',
    provider,
    modelId,
    get supportedUrls() {
      // The AI SDK awaits this before the first model call, so missing configuration
      // surfaces here already, before any file in the prompt is downloaded.
      return new Promise<Record<string, RegExp[]>>((done) => done(resolve().supportedUrls));
    },
    doGenerate: async (callOptions) => resolve().doGenerate(callOptions),
    doStream: async (callOptions) => resolve().doStream(callOptions),
  };
}
