import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { LanguageModelMiddleware } from 'ai';
import { pacedStream } from '../models/paced-stream.js';
import type { DurablePlace, ModelAnswer } from './durable-engine.js';
import { hashModelRequest, modelRequestOf } from './model-request.js';
import { recordedAnswer } from './recorded-answer.js';

/** What {@link durableModelMiddleware} asks of the run (a {@link DurableCalls}): make one model call durably. */
export interface ModelCallMaker {
  modelCall(
    place: DurablePlace,
    call: { mode: 'stream' | 'generate'; request: unknown; requestHash: string },
    work: () => Promise<ModelAnswer>,
  ): Promise<ModelAnswer>;
}

/**
 * Thrown by a model call's work when the call must not be recorded (its stream failed or was
 * aborted); carries what the caller still gets.
 */
class Unrecorded<T> extends Error {
  constructor(readonly value: T) {
    super('june: the model call did not finish cleanly; it is not recorded');
  }
}

/**
 * A `wrapLanguageModel` middleware that hands each model call of one step (`place`) to the
 * run's durable engine:
 *
 * - a call the engine answers from its record is given back in the form asked for (the
 *   recorded stream parts as a stream, or the result), and the model is not called;
 * - any other call goes to the model; its stream passes on as it comes until its first tool
 *   call, which is held back with everything after it: once the stream has ended without an
 *   error part (and without an abort), the engine records the parts, and only after the
 *   record is stored do the tool calls reach the AI SDK (write-ahead: nothing a model call
 *   asked for happens before the call is recorded). A failed or aborted stream is not
 *   recorded, and passes its held parts on without the tool calls. A generate call is
 *   recorded before it returns;
 * - the model's `supportedUrls` is read only when the AI SDK asks for it, and a model that
 *   cannot say (a lazy provider with no configuration, e.g. no `OPENAI_API_KEY`) counts as
 *   supporting no URLs, so a recorded call is answered without building the provider. An
 *   unrecorded call still reaches the model and fails there with the provider's own error.
 *
 * @example
 * ```ts
 * const model = wrapLanguageModel({ model: agentModel, middleware: durableModelMiddleware(calls, { step: 'release' }) });
 * ```
 */
export function durableModelMiddleware(
  calls: ModelCallMaker,
  place: DurablePlace,
): LanguageModelMiddleware {
  return {
    specificationVersion: 'v3',
    overrideSupportedUrls: ({ model }) => supportedUrlsWhenAsked(model),
    wrapStream: async ({ doStream, params }) => {
      const request = modelRequestOf(params);
      const requestHash = hashModelRequest(request);
      type Live = Awaited<ReturnType<typeof doStream>> & { held: HeldStream };
      let started!: (live: Live) => void;
      const live = new Promise<Live>((resolve) => (started = resolve));
      const answer = calls.modelCall(place, { mode: 'stream', request, requestHash }, async () => {
        const result = await doStream();
        const held = new HeldStream(result.stream, params.abortSignal);
        started({ ...result, held });
        return { parts: await held.ended };
      });
      const first = await Promise.race([live, answer]);
      if (!('held' in first)) {
        const { parts } = recordedAnswer('stream', first) as {
          parts: LanguageModelV3StreamPart[];
        };
        return { stream: pacedStream(parts) };
      }
      const { held, ...result } = first;
      held.releaseWhen(answer);
      return { ...result, stream: held.output };
    },
    wrapGenerate: async ({ doGenerate, params }) => {
      // asked as streamText asks (it adds includeRawChunks), so a call recorded in one mode answers the other
      const request = modelRequestOf({ includeRawChunks: false, ...params });
      const requestHash = hashModelRequest(request);
      let made: Awaited<ReturnType<typeof doGenerate>> | undefined;
      try {
        const answer = await calls.modelCall(
          place,
          { mode: 'generate', request, requestHash },
          async () => {
            made = await doGenerate();
            if (params.abortSignal?.aborted) throw new Unrecorded(made);
            return { result: copyOf(made) };
          },
        );
        if (made) return made;
        const { result } = recordedAnswer('generate', answer) as {
          result: NonNullable<ModelAnswer['result']>;
        };
        return structuredClone(result);
      } catch (error) {
        if (error instanceof Unrecorded) return error.value as NonNullable<typeof made>;
        throw error;
      }
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
 * The parts of a model's stream, passed on as they come (`output`) and collected, up to the
 * first `tool-call` part: from there on they are held back. `ended` resolves with every part
 * once the stream ended cleanly (no `error` part, no abort), and rejects otherwise (with
 * {@link Unrecorded} for a failed or aborted stream, with the error for one that threw).
 * The held parts are passed on once the call's recording settles ({@link releaseWhen}): all
 * of them when it was recorded, without the tool calls when it was not (a failed call's tool
 * calls never run), and the output fails with the error when recording failed.
 */
class HeldStream {
  readonly ended: Promise<LanguageModelV3StreamPart[]>;
  readonly output: ReadableStream<LanguageModelV3StreamPart>;
  #end!: { resolve: (parts: LanguageModelV3StreamPart[]) => void; reject: (e: unknown) => void };
  #recorded: Promise<boolean> | undefined;

  constructor(source: ReadableStream<LanguageModelV3StreamPart>, signal: AbortSignal | undefined) {
    this.ended = new Promise((resolve, reject) => (this.#end = { resolve, reject }));
    this.ended.catch(() => {});
    const reader = source.getReader();
    const parts: LanguageModelV3StreamPart[] = [];
    const held: LanguageModelV3StreamPart[] = [];
    let failed = false;
    this.output = new ReadableStream<LanguageModelV3StreamPart>({
      pull: async (controller) => {
        try {
          while (true) {
            const next = await reader.read();
            if (next.done) {
              if (failed || signal?.aborted) this.#end.reject(new Unrecorded(undefined));
              else this.#end.resolve(parts);
              const recorded = await this.#recorded;
              for (const part of held)
                if (recorded || part.type !== 'tool-call') controller.enqueue(part);
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
          this.#end.reject(error);
          controller.error(error);
        }
      },
      cancel: (reason) => {
        this.#end.reject(new Unrecorded(reason));
        return reader.cancel(reason);
      },
    });
  }

  /** Passes the held parts on once `answer` (the engine's recording of this call) settles. */
  releaseWhen(answer: Promise<unknown>): void {
    this.#recorded = answer.then(
      () => true,
      (error: unknown) => {
        if (error instanceof Unrecorded) return false;
        throw error;
      },
    );
    this.#recorded.catch(() => {});
  }
}

function copyOf<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}
