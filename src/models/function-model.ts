import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';

/**
 * A model whose every answer is the text `answer()` gives, with no tokens used: a function of
 * the user's (a conversation's summary, say) made into a model call, so the durable engine
 * records its answer like any other model's and a resume or a replay gives the recorded text
 * back without calling the function again. Its prompt is not read: it is what the record's
 * request hash checks.
 *
 * @example
 * ```ts
 * const model = functionModel('summarize', () => summarize(messages));
 * await generateText({ model: durable.model(model, place), prompt: transcript });
 * ```
 */
export function functionModel(
  name: string,
  answer: () => string | Promise<string>,
): LanguageModelV4 {
  const generate = async (): Promise<LanguageModelV4GenerateResult> => ({
    content: [{ type: 'text', text: await answer() }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 0, text: 0, reasoning: undefined },
    },
    warnings: [],
  });
  return {
    specificationVersion: 'v4',
    provider: 'june.function',
    modelId: name,
    supportedUrls: {},
    doGenerate: (_options: LanguageModelV4CallOptions) => generate(),
    async doStream(_options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
      const { content, finishReason, usage } = await generate();
      const text = content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 'text_0' },
        { type: 'text-delta', id: 'text_0', delta: text },
        { type: 'text-end', id: 'text_0' },
        { type: 'finish', finishReason, usage },
      ];
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
