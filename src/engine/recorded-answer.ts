import type {
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';

/**
 * A recorded model answer in the form a call asks for: the stream parts of a streamed call,
 * or the whole result of a generated one, whichever way it was recorded. So a run recorded
 * while streaming resumes or replays in batch mode (`stream: false`), and the other way round.
 *
 * @example
 * ```ts
 * const { parts } = recordedAnswer('stream', { result: record.result });
 * ```
 */
export function recordedAnswer(
  mode: 'stream' | 'generate',
  recorded: { parts?: LanguageModelV3StreamPart[]; result?: LanguageModelV3GenerateResult },
): { parts: LanguageModelV3StreamPart[] } | { result: LanguageModelV3GenerateResult } {
  const { parts, result } = recorded;
  if (mode === 'stream') return { parts: parts ?? (result ? partsOf(result) : []) };
  return { result: result ?? resultOf(parts ?? []) };
}

/** The parts a provider would have streamed for `result`: each text and reasoning whole, in one delta. */
function partsOf(result: LanguageModelV3GenerateResult): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: result.warnings ?? [] },
  ];
  if (result.response)
    parts.push({
      type: 'response-metadata',
      ...pick(result.response, ['id', 'modelId', 'timestamp']),
    });
  result.content.forEach((part, index) => {
    const id = `part_${index}`;
    if (part.type === 'text')
      parts.push(
        { type: 'text-start', id },
        { type: 'text-delta', id, delta: part.text },
        { type: 'text-end', id },
      );
    else if (part.type === 'reasoning')
      parts.push(
        { type: 'reasoning-start', id },
        { type: 'reasoning-delta', id, delta: part.text },
        { type: 'reasoning-end', id },
      );
    else parts.push(part as LanguageModelV3StreamPart);
  });
  parts.push({
    type: 'finish',
    finishReason: result.finishReason,
    usage: result.usage,
    ...(result.providerMetadata ? { providerMetadata: result.providerMetadata } : {}),
  });
  return parts;
}

/** The whole result a streamed answer adds up to: deltas joined per text and reasoning part. */
function resultOf(parts: LanguageModelV3StreamPart[]): LanguageModelV3GenerateResult {
  const content: LanguageModelV3Content[] = [];
  const open = new Map<string, { type: 'text' | 'reasoning'; text: string }>();
  let result: Partial<LanguageModelV3GenerateResult> = {};
  for (const part of parts) {
    if (part.type === 'text-start' || part.type === 'reasoning-start') {
      const piece = {
        type: part.type === 'text-start' ? ('text' as const) : ('reasoning' as const),
        text: '',
      };
      open.set(`${piece.type}:${part.id}`, piece);
      content.push(piece);
    } else if (part.type === 'text-delta')
      (open.get(`text:${part.id}`) ?? { text: '' }).text += part.delta;
    else if (part.type === 'reasoning-delta')
      (open.get(`reasoning:${part.id}`) ?? { text: '' }).text += part.delta;
    else if (part.type === 'response-metadata')
      result.response = pick(part, ['id', 'modelId', 'timestamp']);
    else if (part.type === 'finish')
      result = {
        ...result,
        finishReason: part.finishReason,
        usage: part.usage,
        ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
      };
    else if (
      part.type === 'tool-call' ||
      part.type === 'tool-result' ||
      part.type === 'file' ||
      part.type === 'source'
    )
      content.push(part as LanguageModelV3Content);
  }
  return { warnings: [], ...result, content } as LanguageModelV3GenerateResult;
}

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Pick<T, K> {
  return Object.fromEntries(
    keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]]),
  ) as Pick<T, K>;
}
