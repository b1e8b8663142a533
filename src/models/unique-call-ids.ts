import type {
  LanguageModelV4Content,
  LanguageModelV4Middleware,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { mappedStream } from './mapped-stream.js';

/** A part of a model's answer (stream part or result content) that may name a tool call. */
type AnswerPart = LanguageModelV4StreamPart | LanguageModelV4Content;

/**
 * A model middleware that gives every tool call of one answer its own `toolCallId`. Some
 * providers repeat an id within one answer (OpenAI-compatible servers that number calls per
 * turn, or give every call the same id); the AI SDK and June match approvals, results and the
 * history sent back by `toolCallId`, so two calls with one id would be one call to them.
 *
 * The first call with an id keeps it; a later call of the same answer with an id already given
 * gets `<id>_<n>`, the smallest `n` from 2 on that no earlier call of the answer has. Its
 * `tool-input-start`, `-delta` and `-end` parts, and a provider-executed `tool-result` or
 * `tool-approval-request` for it, carry the new id too. An answer whose ids are all distinct
 * (nearly every one) passes unchanged. The renaming depends only on the answer, so it is the
 * same whenever the answer is read again.
 *
 * The provider sees the new ids in the history of later calls: each tool result then names
 * exactly one call, which is the only history it can match unambiguously.
 *
 * @example
 * ```ts
 * const model = withMiddleware(provider('gpt-oss'), uniqueCallIds);
 * // an answer calling `dup` twice reaches the AI SDK as `dup` and `dup_2`
 * ```
 */
export const uniqueCallIds: LanguageModelV4Middleware = {
  specificationVersion: 'v4',
  wrapStream: async ({ doStream }) => {
    const { stream, ...rest } = await doStream();
    const rename = callIdRenamer();
    return {
      ...rest,
      stream: mappedStream(stream, (part: LanguageModelV4StreamPart) => [rename(part)]),
    };
  },
  wrapGenerate: async ({ doGenerate }) => {
    const result = await doGenerate();
    // nearly every answer: no id repeats, so nothing is renamed
    if (!repeatsCallId(result.content)) return result;
    const rename = callIdRenamer();
    const content = result.content.map(rename);
    return content.some((part, index) => part !== result.content[index])
      ? { ...result, content }
      : result;
  },
};

/** Whether two tool calls of a whole answer have one id (the only case {@link uniqueCallIds} renames). */
function repeatsCallId(content: readonly LanguageModelV4Content[]): boolean {
  let first: string | undefined;
  let seen: Set<string> | undefined;
  for (const part of content) {
    if (part.type !== 'tool-call') continue;
    const id = part.toolCallId;
    if (first === undefined) {
      first = id;
      continue;
    }
    seen ??= new Set([first]);
    if (seen.has(id)) return true;
    seen.add(id);
  }
  return false;
}

/**
 * A function that gives back each part of one answer, read in order, with the tool call id it
 * has in {@link uniqueCallIds}: the same part when the id stays, else a copy.
 */
function callIdRenamer(): <P extends AnswerPart>(part: P) => P {
  const given = new Set<string>();
  // the provider's id -> the id of its latest call; inputs started and not yet called
  const latest = new Map<string, string>();
  const started = new Map<string, string>();
  const fresh = (id: string): string => {
    let name = id;
    for (let n = 2; given.has(name); n++) name = `${id}_${n}`;
    given.add(name);
    latest.set(id, name);
    return name;
  };
  return <P extends AnswerPart>(part: P): P => {
    switch (part.type) {
      case 'tool-input-start': {
        const name = fresh(part.id);
        started.set(part.id, name);
        return name === part.id ? part : { ...part, id: name };
      }
      case 'tool-input-delta':
      case 'tool-input-end': {
        const name = latest.get(part.id) ?? part.id;
        return name === part.id ? part : { ...part, id: name };
      }
      case 'tool-call': {
        const name = started.get(part.toolCallId) ?? fresh(part.toolCallId);
        started.delete(part.toolCallId);
        return name === part.toolCallId ? part : { ...part, toolCallId: name };
      }
      case 'tool-result':
      case 'tool-approval-request': {
        const name = latest.get(part.toolCallId) ?? part.toolCallId;
        return name === part.toolCallId ? part : { ...part, toolCallId: name };
      }
      default:
        return part;
    }
  };
}
