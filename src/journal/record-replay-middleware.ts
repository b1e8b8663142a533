import type {
  LanguageModelV3,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import type { LanguageModelMiddleware } from 'ai';
import { pacedStream } from '../models/paced-stream.js';
import type { JournalPlace } from './journal-record.js';
import { hashModelRequest, modelRequestOf } from './model-request.js';

/**
 * What the middleware asks of the run's journal (a {@link RunJournal}): the next call at a
 * place (recorded, or to be made and recorded), and how to record it.
 */
export interface ModelCallJournal {
  /**
   * The next model call at `place`: its recording (checked against `requestHash`) or, when
   * there is none, the index it will be recorded under.
   * @throws {WorkflowError} `journal-mismatch` when the recording asked something else, or
   *   when the journal answers every call and has none here.
   */
  nextModelCall(
    place: JournalPlace,
    mode: 'stream' | 'generate',
    request: unknown,
    requestHash: string,
  ): Promise<{
    index: number;
    parts?: LanguageModelV3StreamPart[];
    result?: LanguageModelV3GenerateResult;
  }>;
  /** Records a call that finished; the returned promise settles once it is stored. */
  recordModelCall(
    place: JournalPlace,
    call: {
      index: number;
      mode: 'stream' | 'generate';
      request: unknown;
      requestHash: string;
      parts?: LanguageModelV3StreamPart[];
      result?: LanguageModelV3GenerateResult;
    },
  ): Promise<void>;
}

/**
 * A `wrapLanguageModel` middleware that journals the model calls of one step (`place`):
 *
 * - a call the journal holds (same place, same index, same request) is answered from it:
 *   the recorded stream parts as a stream (or the recorded result), and the model is not called;
 * - any other call goes to the model; its stream passes on as it comes until its first tool
 *   call, which is held back with everything after it: once the stream has ended without an
 *   error part (and without an abort), its parts are recorded, and only after the record is
 *   stored do the tool calls reach the AI SDK (write-ahead: nothing a model call asked for
 *   happens before the call is in the journal). A generate call is recorded before it returns;
 * - the model's `supportedUrls` is read only when the AI SDK asks for it, and a model that
 *   cannot say (a lazy provider with no configuration, e.g. no `OPENAI_API_KEY`) counts as
 *   supporting no URLs, so a recorded call is answered without building the provider. An
 *   unrecorded call still reaches the model and fails there with the provider's own error.
 *
 * @example
 * ```ts
 * const model = wrapLanguageModel({ model: agentModel, middleware: recordReplayMiddleware(journal, { step: 'release' }) });
 * ```
 */
export function recordReplayMiddleware(
  journal: ModelCallJournal,
  place: JournalPlace,
): LanguageModelMiddleware {
  return {
    specificationVersion: 'v3',
    overrideSupportedUrls: ({ model }) => supportedUrlsWhenAsked(model),
    wrapStream: async ({ doStream, params }) => {
      const request = modelRequestOf(params);
      const requestHash = hashModelRequest(request);
      const next = await journal.nextModelCall(place, 'stream', request, requestHash);
      if (next.parts) return { stream: pacedStream(next.parts) };
      const result = await doStream();
      const stream = tapped(result.stream, params.abortSignal, (parts) =>
        journal.recordModelCall(place, {
          index: next.index,
          mode: 'stream',
          request,
          requestHash,
          parts,
        }),
      );
      return { ...result, stream };
    },
    wrapGenerate: async ({ doGenerate, params }) => {
      // asked as streamText asks (it adds includeRawChunks), so a call recorded in one mode answers the other
      const request = modelRequestOf({ includeRawChunks: false, ...params });
      const requestHash = hashModelRequest(request);
      const next = await journal.nextModelCall(place, 'generate', request, requestHash);
      if (next.result) return structuredClone(next.result);
      const result = await doGenerate();
      if (!params.abortSignal?.aborted)
        await journal.recordModelCall(place, {
          index: next.index,
          mode: 'generate',
          request,
          requestHash,
          result: copyOf(result),
        });
      return result;
    },
  };
}

/**
 * `model.supportedUrls`, read when awaited rather than when the model is wrapped (a getter
 * may build a provider), or `{}` when reading it fails.
 */
function supportedUrlsWhenAsked(model: LanguageModelV3): PromiseLike<Record<string, RegExp[]>> {
  return {
    then: (onFulfilled, onRejected) =>
      Promise.resolve()
        .then(() => model.supportedUrls)
        .catch(() => ({}))
        .then(onFulfilled, onRejected),
  };
}

/**
 * The parts of `source`, passed on as they come and collected, up to the first `tool-call`
 * part: from there on they are held back. When the stream ends cleanly (no `error` part, no
 * abort) `done(parts)` runs (the call is recorded) and only then are the held parts passed
 * on, so no tool call reaches the AI SDK (which executes it, asks for its approval, starts a
 * child run) before the model call that asked for it is stored. A stream that fails passes
 * its held parts on without the tool calls: a failed call's tool calls never run.
 */
function tapped(
  source: ReadableStream<LanguageModelV3StreamPart>,
  signal: AbortSignal | undefined,
  done: (parts: LanguageModelV3StreamPart[]) => Promise<void>,
): ReadableStream<LanguageModelV3StreamPart> {
  const reader = source.getReader();
  const parts: LanguageModelV3StreamPart[] = [];
  const held: LanguageModelV3StreamPart[] = [];
  let failed = false;
  return new ReadableStream<LanguageModelV3StreamPart>({
    async pull(controller) {
      try {
        while (true) {
          const next = await reader.read();
          if (next.done) {
            const clean = !failed && !signal?.aborted;
            if (clean) await done(parts);
            for (const part of held)
              if (clean || part.type !== 'tool-call') controller.enqueue(part);
            controller.close();
            return;
          }
          if (next.value.type === 'error') failed = true;
          parts.push(copyOf(next.value));
          if (held.length === 0 && next.value.type !== 'tool-call') {
            controller.enqueue(next.value);
            return;
          }
          held.push(next.value);
        }
      } catch (error) {
        controller.error(error);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

function copyOf<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}
