import type {
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  SharedV4ProviderMetadata,
} from '@ai-sdk/provider';
import type { ModelPrice } from './price.js';

/**
 * The provider metadata that marks a model call answered from a record (a resume or a
 * replay) rather than made: `{ june: { replayed: true } }` beside the provider's own, on the
 * answer's `finish` part or its result. The AI SDK hands a call's finish metadata on with the
 * step (`finish-step`), never into the messages sent back to the model, so the mark reaches
 * the run's events without changing a later request. The price the call was recorded at,
 * when it had one, goes with the mark (`june.price`, see {@link recordedPrice}).
 *
 * @example
 * ```ts
 * replayedMetadata({ openai: { responseId: 'resp_1' } });
 * // { openai: { responseId: 'resp_1' }, june: { replayed: true } }
 * ```
 */
export function replayedMetadata(
  metadata: SharedV4ProviderMetadata | undefined,
  price?: ModelPrice,
): SharedV4ProviderMetadata {
  const priced = price ? { price: price as unknown as JSONObject } : {};
  return { ...metadata, june: { ...metadata?.june, replayed: true, ...priced } };
}

type JSONObject = SharedV4ProviderMetadata[string];

/**
 * The stream parts of a recorded answer with its `finish` part marked ({@link replayedMetadata}).
 * `parts` is changed in place (a fresh array from `answerParts`); the parts themselves are
 * not, since they may be the record's own.
 */
export function replayedParts(
  parts: LanguageModelV4StreamPart[],
  price?: ModelPrice,
): LanguageModelV4StreamPart[] {
  const at = parts.findLastIndex((part) => part.type === 'finish');
  const finish = parts[at];
  if (finish?.type === 'finish')
    parts[at] = { ...finish, providerMetadata: replayedMetadata(finish.providerMetadata, price) };
  return parts;
}

/** The result of a recorded answer, marked ({@link replayedMetadata}). */
export function replayedResult(
  result: LanguageModelV4GenerateResult,
  price?: ModelPrice,
): LanguageModelV4GenerateResult {
  return { ...result, providerMetadata: replayedMetadata(result.providerMetadata, price) };
}

/**
 * Whether a step's provider metadata (a `finish-step` part's, a step result's) marks its
 * model call as answered from a record ({@link replayedMetadata}).
 */
export function isReplayedCall(metadata: unknown): boolean {
  const june = (metadata as { june?: { replayed?: unknown } } | undefined)?.june;
  return june?.replayed === true;
}

/**
 * The price a replayed call was recorded at ({@link replayedMetadata}), from a step's
 * provider metadata; `undefined` for a call made in this process, or recorded without one.
 */
export function recordedPrice(metadata: unknown): ModelPrice | undefined {
  const june = (metadata as { june?: { replayed?: unknown; price?: unknown } } | undefined)?.june;
  const price = june?.replayed === true ? june.price : undefined;
  return typeof price === 'object' && price !== null && 'rates' in price
    ? (price as ModelPrice)
    : undefined;
}
