import type {
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { MODEL_ANSWER_VERSION, type ModelAnswer } from './model-answer.js';

/**
 * The record of a streamed call's answer: its parts as the model gave them (copied), apart
 * from `ping` parts, which only keep a connection alive.
 *
 * @example
 * ```ts
 * const answer = streamedAnswer(parts); // { version: 1, spec: 'v4', parts }
 * ```
 */
export function streamedAnswer(parts: readonly LanguageModelV4StreamPart[]): ModelAnswer {
  return {
    version: MODEL_ANSWER_VERSION,
    spec: 'v4',
    parts: parts.filter((part) => part.type !== 'ping'),
  };
}

/**
 * The record of a generate call's answer: its whole result.
 *
 * @example
 * ```ts
 * const answer = generatedAnswer(await model.doGenerate(options)); // { version: 1, spec: 'v4', result }
 * ```
 */
export function generatedAnswer(result: LanguageModelV4GenerateResult): ModelAnswer {
  return {
    version: MODEL_ANSWER_VERSION,
    spec: 'v4',
    result: result as unknown as Readonly<Record<string, unknown>>,
  };
}

/**
 * The record of an answer given by a person instead of a model (a fork's changed answer):
 * `text` as the whole answer, with no tokens spent.
 *
 * @example
 * ```ts
 * const answer = textAnswer('Ship it.'); // { version: 1, spec: 'v4', result: { content: [{ type: 'text', text: 'Ship it.' }], ... } }
 * ```
 */
export function textAnswer(text: string): ModelAnswer {
  return generatedAnswer({
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 0, text: 0, reasoning: undefined },
    },
    warnings: [],
  });
}

/**
 * A recorded answer as the stream parts of a `v4` model: its parts, or the parts a provider
 * would have streamed for its result (each text and reasoning whole, in one delta). So a
 * call recorded in batch mode (`stream: false`) answers a streamed one.
 *
 * @example
 * ```ts
 * return { stream: pacedStream(answerParts(recorded)) };
 * ```
 */
export function answerParts(answer: ModelAnswer): LanguageModelV4StreamPart[] {
  if (answer.parts) return answer.parts.map((part) => lifted(part) as LanguageModelV4StreamPart);
  return partsOf(answerResult(answer));
}

/**
 * A recorded answer as the result of a `v4` model's `doGenerate`: its result, or what its
 * stream parts add up to (deltas joined per text and reasoning part). So a call recorded
 * while streaming answers one made in batch mode.
 *
 * @example
 * ```ts
 * return answerResult(recorded);
 * ```
 */
export function answerResult(answer: ModelAnswer): LanguageModelV4GenerateResult {
  if (!answer.result) return resultOf(answerParts(answer));
  const result = structuredClone(answer.result) as unknown as LanguageModelV4GenerateResult;
  return {
    ...result,
    content: result.content.map((part) => lifted(part) as LanguageModelV4Content),
  };
}

/** A tool call a model asked for: the provider's id and the tool's name. */
export interface AskedToolCall {
  toolCallId: string;
  toolName: string;
}

/**
 * The tool calls of a recorded answer, in order: its `tool-call` parts, or the `tool-call`
 * items of its result's content. The same for every specification.
 *
 * @example
 * ```ts
 * answerToolCalls(recorded); // [{ toolCallId: 'call_1', toolName: 'deploy' }]
 * ```
 */
export function answerToolCalls(answer: ModelAnswer): AskedToolCall[] {
  const content = (answer.result as { content?: unknown } | undefined)?.content;
  const items: readonly unknown[] = answer.parts ?? (Array.isArray(content) ? content : []);
  return items.flatMap((item) => {
    const part = item as { type?: string; toolCallId?: unknown; toolName?: unknown };
    return part.type === 'tool-call' && typeof part.toolCallId === 'string'
      ? [{ toolCallId: part.toolCallId, toolName: String(part.toolName) }]
      : [];
  });
}

/**
 * A part or content item of a recorded answer in `v4` terms. Between `v3` and `v4` only
 * files differ: a `v3` file's `data` (bytes or base64) is `v4`'s `{ type: 'data', data }`.
 * A `v4` file is left as it is.
 */
function lifted(part: unknown): unknown {
  const file = part as { type?: unknown; data?: unknown };
  if (file.type !== 'file') return part;
  if (typeof file.data === 'object' && file.data !== null && !(file.data instanceof Uint8Array))
    return part;
  return { ...file, data: { type: 'data', data: file.data } };
}

/** The parts a provider would have streamed for `result`. */
function partsOf(result: LanguageModelV4GenerateResult): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [
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
        { type: 'text-end', id, ...(part.citations ? { citations: part.citations } : {}) },
      );
    else if (part.type === 'reasoning')
      parts.push(
        { type: 'reasoning-start', id },
        { type: 'reasoning-delta', id, delta: part.text },
        { type: 'reasoning-end', id },
      );
    else parts.push(part as LanguageModelV4StreamPart);
  });
  parts.push({
    type: 'finish',
    finishReason: result.finishReason,
    usage: result.usage,
    ...(result.providerMetadata ? { providerMetadata: result.providerMetadata } : {}),
  });
  return parts;
}

/** Content parts that stand in a stream as they stand in a result. */
const WHOLE_PARTS = new Set([
  'tool-call',
  'tool-result',
  'tool-approval-request',
  'file',
  'reasoning-file',
  'source',
  'custom',
]);

/** The whole result a streamed answer adds up to. */
function resultOf(parts: LanguageModelV4StreamPart[]): LanguageModelV4GenerateResult {
  const content: LanguageModelV4Content[] = [];
  const open = new Map<string, { type: 'text' | 'reasoning'; text: string; citations?: unknown }>();
  let result: Partial<LanguageModelV4GenerateResult> = {};
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
    else if (part.type === 'text-end' && part.citations) {
      const piece = open.get(`text:${part.id}`);
      if (piece) piece.citations = part.citations;
    } else if (part.type === 'response-metadata')
      result.response = pick(part, ['id', 'modelId', 'timestamp']);
    else if (part.type === 'finish')
      result = {
        ...result,
        finishReason: part.finishReason,
        usage: part.usage,
        ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
      };
    else if (WHOLE_PARTS.has(part.type)) content.push(part as LanguageModelV4Content);
  }
  return { warnings: [], ...result, content } as LanguageModelV4GenerateResult;
}

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Pick<T, K> {
  return Object.fromEntries(
    keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]]),
  ) as Pick<T, K>;
}
