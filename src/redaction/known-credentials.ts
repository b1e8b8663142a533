/**
 * Environment variables that hold a model provider's API key or token, whatever model a run
 * uses: `OPENAI_API_KEY` (read by `june/sdk/openai`) and the variables the AI SDK's own
 * providers read for their keys. A process that has one set has that credential, and a tool
 * that prints it must not put it into a record, even when the run's model is a script or a
 * replayed journal and no provider is ever called.
 */
export const KNOWN_KEY_VARIABLES: readonly string[] = Object.freeze([
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'AZURE_API_KEY',
  'AI_GATEWAY_API_KEY',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_BEARER_TOKEN_BEDROCK',
  'CEREBRAS_API_KEY',
  'COHERE_API_KEY',
  'DEEPINFRA_API_KEY',
  'DEEPSEEK_API_KEY',
  'FIREWORKS_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'GOOGLE_VERTEX_API_KEY',
  'GROQ_API_KEY',
  'MISTRAL_API_KEY',
  'PERPLEXITY_API_KEY',
  'TOGETHER_AI_API_KEY',
  'XAI_API_KEY',
]);

/**
 * Environment variables that hold a provider's endpoint (`OPENAI_BASE_URL`, read by
 * `june/sdk/openai`): a URL whose user, password, query or fragment may carry a credential
 * (`https://user:token@gateway/v1`, `...?api-key=...`). Only those parts are secrets; a
 * plain `http://localhost:11434/v1` is not.
 */
export const KNOWN_URL_VARIABLES: readonly string[] = Object.freeze(['OPENAI_BASE_URL']);
