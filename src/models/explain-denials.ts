import type { LanguageModelV4Middleware, LanguageModelV4Prompt } from '@ai-sdk/provider';

const DENIED = 'The tool call was denied, so it did not run.';

/**
 * The text a model reads for a tool call that was denied: it says the call was denied and
 * did not run, then gives the reason when there is one.
 *
 * Providers flatten the AI SDK's `execution-denied` tool result into plain text, and some
 * (`@ai-sdk/openai`, Responses and Chat Completions) send only the reason, which then reads
 * like the tool's own output; this text makes the denial explicit on every provider.
 *
 * @example
 * ```ts
 * denialText('use the staging list'); // 'The tool call was denied, so it did not run. Reason: use the staging list'
 * denialText(); // 'The tool call was denied, so it did not run.'
 * ```
 */
export function denialText(reason?: string): string {
  return reason === undefined || reason.trim() === '' ? DENIED : `${DENIED} Reason: ${reason}`;
}

/**
 * A model middleware that gives every denied tool call in the prompt the reason
 * {@link denialText} (its type stays `execution-denied`), so the model reads a denial as one
 * whatever its provider does with the type. Only what is sent to the model changes: the
 * step's messages, the trace and the journal keep the reason as it was given.
 */
export const explainDenials: LanguageModelV4Middleware = {
  specificationVersion: 'v4',
  // a prompt without denials (nearly every one) is passed on as it is, not copied
  transformParams: async ({ params }) =>
    params.prompt.some(hasDenial) ? { ...params, prompt: explainedPrompt(params.prompt) } : params,
};

function hasDenial(message: LanguageModelV4Prompt[number]): boolean {
  return (
    message.role === 'tool' &&
    message.content.some(
      (part) => part.type === 'tool-result' && part.output.type === 'execution-denied',
    )
  );
}

function explainedPrompt(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  return prompt.map((message) => {
    if (message.role !== 'tool' || !hasDenial(message)) return message;
    return {
      ...message,
      content: message.content.map((part) =>
        part.type === 'tool-result' && part.output.type === 'execution-denied'
          ? { ...part, output: { ...part.output, reason: denialText(part.output.reason) } }
          : part,
      ),
    };
  });
}
