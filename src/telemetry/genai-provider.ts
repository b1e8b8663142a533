/**
 * The AI SDK provider ids (their first segment) whose `gen_ai.provider.name` the OpenTelemetry
 * GenAI semantic conventions list among their well-known values.
 */
const WELL_KNOWN: Record<string, string> = {
  openai: 'openai',
  anthropic: 'anthropic',
  'google.generative-ai': 'gcp.gemini',
  'google.vertex': 'gcp.vertex_ai',
  'amazon-bedrock': 'aws.bedrock',
  azure: 'azure.ai.openai',
  'azure-openai': 'azure.ai.openai',
  mistral: 'mistral_ai',
  groq: 'groq',
  deepseek: 'deepseek',
  xai: 'x_ai',
  perplexity: 'perplexity',
  cohere: 'cohere',
};

/**
 * `gen_ai.provider.name` for an AI SDK provider id: the conventions' well-known value where
 * there is one (`openai.responses` → `openai`, `google.vertex.chat` → `gcp.vertex_ai`,
 * `amazon-bedrock` → `aws.bedrock`), else the id's first segment (`gateway`, `june` for
 * June's scripted model).
 */
export function genAiProviderName(provider: string): string {
  for (const [prefix, name] of Object.entries(WELL_KNOWN))
    if (provider === prefix || provider.startsWith(`${prefix}.`)) return name;
  return provider.split('.')[0] || provider;
}

/** The AI SDK's finish reasons that the GenAI conventions spell otherwise. */
const FINISH_REASONS: Record<string, string> = {
  'tool-calls': 'tool_call',
  'content-filter': 'content_filter',
};

/**
 * A finish reason as the GenAI conventions spell it (`stop`, `length`, `content_filter`,
 * `tool_call`, `error`): the AI SDK's `tool-calls` is `tool_call`, `content-filter` is
 * `content_filter`; the others are the same words.
 */
export function genAiFinishReason(reason: string): string {
  return FINISH_REASONS[reason] ?? reason;
}
