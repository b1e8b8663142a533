// first: an empty OPENAI_BASE_URL must be out of the environment while @ai-sdk/openai loads
import { restoreEmptyBaseUrl } from './hide-empty-base-url.js';
import {
  createOpenAI as createUpstreamOpenAI,
  openai as upstreamOpenAI,
  type OpenAIProvider,
  type OpenAIProviderSettings,
} from '@ai-sdk/openai';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { registerSecretValue } from '../redaction/configured-secrets.js';
import { lazyLanguageModel } from './lazy-language-model.js';
import {
  OPENAI_DEFAULT_BASE_URL,
  OPENAI_PLACEHOLDER_API_KEY,
  openAISettingsFromEnv,
  type OpenAIEnvSettings,
} from './openai-settings-from-env.js';

restoreEmptyBaseUrl();

export type { OpenAIProvider, OpenAIProviderSettings } from '@ai-sdk/openai';

/** A model id of OpenAI's Responses API, e.g. `"gpt-5-mini"`; any string is accepted. */
export type OpenAIResponsesModelId = Parameters<OpenAIProvider['responses']>[0];
/** A model id of OpenAI's Chat Completions API, e.g. `"gpt-4o-mini"`; any string is accepted. */
export type OpenAIChatModelId = Parameters<OpenAIProvider['chat']>[0];

/**
 * The shape of {@link openai}: call it with a model id for a Responses API model, or use
 * `.chat(id)` for servers that only speak Chat Completions.
 */
export interface LazyOpenAIProvider {
  /** A Responses API model (`POST {baseURL}/responses`), configured from the environment when called. */
  (modelId: OpenAIResponsesModelId): LanguageModelV4;
  /** Same as calling `openai(modelId)`. */
  languageModel(modelId: OpenAIResponsesModelId): LanguageModelV4;
  /** Same as calling `openai(modelId)`: the Responses API. */
  responses(modelId: OpenAIResponsesModelId): LanguageModelV4;
  /** A Chat Completions model (`POST {baseURL}/chat/completions`), configured from the environment when called. */
  chat(modelId: OpenAIChatModelId): LanguageModelV4;
  /** OpenAI's provider-executed tools (web search, file search, ...), as in `@ai-sdk/openai`. */
  tools: OpenAIProvider['tools'];
}

let cached: (OpenAIEnvSettings & { provider: OpenAIProvider }) | undefined;

/** The `@ai-sdk/openai` provider for the current environment, rebuilt only when it changes. */
function providerFromEnv(): OpenAIProvider {
  const settings = openAISettingsFromEnv(process.env);
  if (
    cached === undefined ||
    cached.baseURL !== settings.baseURL ||
    cached.apiKey !== settings.apiKey
  ) {
    // a provider's error body may echo the key: it is kept out of every record
    if (settings.apiKey !== OPENAI_PLACEHOLDER_API_KEY) registerSecretValue(settings.apiKey);
    cached = { ...settings, provider: createUpstreamOpenAI(settings) };
  }
  return cached.provider;
}

const responsesModel = (modelId: OpenAIResponsesModelId): LanguageModelV4 =>
  lazyLanguageModel({
    provider: 'openai.responses',
    modelId,
    resolve: () => providerFromEnv().responses(modelId),
  });

const chatModel = (modelId: OpenAIChatModelId): LanguageModelV4 =>
  lazyLanguageModel({
    provider: 'openai.chat',
    modelId,
    resolve: () => providerFromEnv().chat(modelId),
  });

/**
 * OpenAI models for June workflows, configured from the environment **when a model is called**
 * (not at import), so a CLI or a test can set the variables after importing this module:
 *
 * - `OPENAI_API_KEY`: use OpenAI's API with this key;
 * - `OPENAI_BASE_URL`: use an OpenAI-compatible server instead, e.g. Ollama
 *   (`http://localhost:11434/v1`), vLLM (`http://localhost:8000/v1`) or llama.cpp's server.
 *   A key is then optional: without one, a placeholder is sent.
 *
 * `openai(id)` uses the Responses API, like `@ai-sdk/openai`'s default; `openai.chat(id)` uses
 * Chat Completions, which is what most local servers support best. The returned value is an
 * AI SDK `LanguageModelV4` (`@ai-sdk/openai@4`), so it also works with `generateText` /
 * `streamText` directly. An empty `OPENAI_BASE_URL` counts as unset, also when this module
 * is imported.
 *
 * @throws {SystemError} code `openai-not-configured` (as the rejection of the model call, never
 *   at creation) when neither `OPENAI_API_KEY` nor `OPENAI_BASE_URL` is set
 * @throws {SystemError} code `openai-base-url-invalid` when `OPENAI_BASE_URL` is not an http(s) URL
 *
 * @example
 * ```tsx
 * import { Agent, run } from 'june';
 * import { openai } from 'june/sdk/openai';
 *
 * // OPENAI_API_KEY=sk-... or OPENAI_BASE_URL=http://localhost:11434/v1
 * const handle = run(<Agent model={openai('gpt-5-mini')} instructions="Answer in one line." />);
 * ```
 */
export const openai: LazyOpenAIProvider = Object.assign(
  (modelId: OpenAIResponsesModelId) => responsesModel(modelId),
  {
    languageModel: responsesModel,
    responses: responsesModel,
    chat: chatModel,
    tools: upstreamOpenAI.tools,
  },
);

/**
 * Creates an `@ai-sdk/openai` provider with explicit settings, e.g. for a second endpoint next
 * to the one in the environment. It is `@ai-sdk/openai`'s `createOpenAI` with one addition:
 * when a base URL is known (`options.baseURL` or `OPENAI_BASE_URL`) and no key is
 * (`options.apiKey` or `OPENAI_API_KEY`), a placeholder key is sent, since local servers need
 * none. Unlike {@link openai}, the settings are read when this function runs.
 *
 * @param options `baseURL`, `apiKey`, `organization`, `project`, `headers`, `name`, `fetch`
 * @default options `{}`: `OPENAI_BASE_URL` or `https://api.openai.com/v1`, key from `OPENAI_API_KEY`
 *
 * @example
 * ```tsx
 * import { Agent } from 'june';
 * import { createOpenAI } from 'june/sdk/openai';
 *
 * const ollama = createOpenAI({ baseURL: 'http://localhost:11434/v1' });
 * <Agent model={ollama.chat('llama3.2')} instructions="Summarize the input." />;
 * ```
 */
export function createOpenAI(options: OpenAIProviderSettings = {}): OpenAIProvider {
  const envBaseURL = process.env.OPENAI_BASE_URL;
  const hasBaseURL = options.baseURL !== undefined || isSet(envBaseURL);
  const hasKey = options.apiKey !== undefined || isSet(process.env.OPENAI_API_KEY);
  const key = options.apiKey ?? process.env.OPENAI_API_KEY;
  if (typeof key === 'string') registerSecretValue(key);
  // an empty OPENAI_BASE_URL counts as unset (@ai-sdk/openai@4 would refuse it)
  const baseURL =
    options.baseURL === undefined && envBaseURL !== undefined && !isSet(envBaseURL)
      ? { baseURL: OPENAI_DEFAULT_BASE_URL }
      : {};
  return createUpstreamOpenAI({
    ...options,
    ...baseURL,
    ...(hasBaseURL && !hasKey ? { apiKey: OPENAI_PLACEHOLDER_API_KEY } : {}),
  });
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}
