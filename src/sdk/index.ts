export { openai, createOpenAI } from './openai.js';
export type {
  LazyOpenAIProvider,
  OpenAIChatModelId,
  OpenAIProvider,
  OpenAIProviderSettings,
  OpenAIResponsesModelId,
} from './openai.js';
