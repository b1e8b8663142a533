import type {
  LanguageModelV4,
  LanguageModelV4GenerateResult,
  LanguageModelV4Middleware,
} from '@ai-sdk/provider';
import { wrapLanguageModel, type LanguageModel } from 'ai';
import { answerParts, answerResult, generatedAnswer, streamedAnswer } from './answer-forms.js';
import { failedAnswer, failureError, isFailedAnswer } from './failed-answer.js';
import { copyOf, HeldStream, StreamFailure, Unrecorded } from './held-stream.js';
import type { ModelAnswer } from './model-answer.js';
import { hashModelRequest, modelRequestOf } from './model-request.js';
import { pacedStream } from './paced-stream.js';
import { replayedParts, replayedResult } from './replayed-call.js';
import { resolveModel } from './resolve-model.js';

/** One model call as it is handed to a {@link ModelCallRecorder}. */
export interface RecordedModelCall {
  /** How it is asked: `stream`, or `generate` in batch mode. */
  mode: 'stream' | 'generate';
  /** The call's request as plain JSON ({@link modelRequestOf}). */
  request: unknown;
  /** The SHA-256 of `request` ({@link hashModelRequest}). */
  requestHash: string;
}

/**
 * What {@link journaledModel} hands each model call to (the run's durable calls): give back
 * the recorded answer of the call, or run `work` (which makes the call) and record what it
 * resolves with before resolving.
 */
export interface ModelCallRecorder {
  modelCall(call: RecordedModelCall, work: () => Promise<ModelAnswer>): Promise<ModelAnswer>;
}

/**
 * `model`, whatever its specification ({@link resolveModel}), with each call handed to
 * `recorder`, which keeps a {@link ModelAnswer} of it:
 *
 * - a call the recorder answers from its record is given back in the form asked for (the
 *   recorded stream parts as a stream, or the result), marked as replayed in its finish
 *   metadata ({@link replayedParts}), and the model is not called;
 * - any other call goes to the model; its stream passes on as it comes until its first tool
 *   call, which is held back with everything after it: once the stream has ended without an
 *   error part (and without an abort), the recorder records the parts, and only after the
 *   record is stored do the tool calls reach the AI SDK (write-ahead: nothing a model call
 *   asked for happens before the call is recorded). A failed or aborted stream passes its
 *   held parts on without the tool calls. A generate call is
 *   recorded before it returns;
 * - a call that fails (the model throws, or its stream fails once begun) is recorded too, as
 *   a failed answer ({@link failedAnswer}), before the call ends for the AI SDK; given back,
 *   it fails again with the same error ({@link failureError}), and the model is not called.
 *   A call that fails because it was aborted is not recorded: it is made again;
 * - the model's `supportedUrls` is read only when the AI SDK asks for it, and a model that
 *   cannot say (a lazy provider with no configuration, e.g. no `OPENAI_API_KEY`) counts as
 *   supporting no URLs, so a recorded call is answered without building the provider. An
 *   unrecorded call still reaches the model and fails there with the provider's own error.
 *
 * Every model is wrapped: one that cannot be is an error, never a model whose calls would go
 * unrecorded.
 *
 * @param shown - how messages name where the model came from.
 * @throws {WorkflowError} `model-spec-unsupported` or `model-invalid` (see {@link resolveModel}).
 * @example
 * ```ts
 * const model = journaledModel(agentModel, { modelCall: (call, work) => calls.modelCall(place, call, work) });
 * ```
 */
export function journaledModel(
  model: LanguageModel,
  recorder: ModelCallRecorder,
  shown?: string,
): LanguageModel {
  return wrapLanguageModel({
    model: resolveModel(model, shown),
    middleware: journalMiddleware(recorder),
  });
}

function journalMiddleware(recorder: ModelCallRecorder): LanguageModelV4Middleware {
  return {
    specificationVersion: 'v4',
    overrideSupportedUrls: ({ model }) => supportedUrlsWhenAsked(model),
    wrapStream: (options) => journaledStream(recorder, options),
    wrapGenerate: (options) => journaledGenerate(recorder, options),
  };
}

type WrapStreamOptions = Parameters<NonNullable<LanguageModelV4Middleware['wrapStream']>>[0];
type WrapGenerateOptions = Parameters<NonNullable<LanguageModelV4Middleware['wrapGenerate']>>[0];
type StreamResult = Awaited<ReturnType<WrapStreamOptions['doStream']>>;

/** A streamed call through the recorder: replayed, or made live with its tool calls held back. */
async function journaledStream(
  recorder: ModelCallRecorder,
  { doStream, params }: WrapStreamOptions,
): Promise<StreamResult> {
  const request = modelRequestOf(params);
  const requestHash = hashModelRequest(request);
  type Live = StreamResult & { held: HeldStream };
  let started!: (live: Live) => void;
  const live = new Promise<Live>((resolve) => (started = resolve));
  const thrown: Thrown = {};
  const answer = recorder.modelCall({ mode: 'stream', request, requestHash }, async () => {
    const result = await madeOrFailed(doStream, params.abortSignal, thrown);
    if (!('made' in result)) return result.failed;
    const held = new HeldStream(result.made.stream, params.abortSignal);
    started({ ...result.made, held });
    try {
      return streamedAnswer(await held.ended);
    } catch (error) {
      if (error instanceof StreamFailure) return failedAnswer(error.error, 'stream');
      throw error;
    }
  });
  const first = await Promise.race([live, answer]);
  if (!('held' in first)) {
    if (isFailedAnswer(first)) throw 'error' in thrown ? thrown.error : failureError(first.error);
    return { stream: pacedStream(replayedParts(answerParts(first), first.price)) };
  }
  const { held, ...result } = first;
  // a failed stream's record is no answer: its tool calls never reach the AI SDK
  held.releaseWhen(
    answer.then((given) =>
      isFailedAnswer(given) ? Promise.reject(new Unrecorded(undefined)) : given,
    ),
  );
  return { ...result, stream: held.output };
}

/** A generate call through the recorder: replayed, or made and recorded before it returns. */
async function journaledGenerate(
  recorder: ModelCallRecorder,
  { doGenerate, params }: WrapGenerateOptions,
): Promise<LanguageModelV4GenerateResult> {
  // asked as streamText asks (it adds includeRawChunks), so a call recorded in one mode answers the other
  const request = modelRequestOf({ includeRawChunks: false, ...params });
  const requestHash = hashModelRequest(request);
  let made: LanguageModelV4GenerateResult | undefined;
  const thrown: Thrown = {};
  try {
    const answer = await recorder.modelCall(
      { mode: 'generate', request, requestHash },
      async () => {
        const result = await madeOrFailed(doGenerate, params.abortSignal, thrown);
        if (!('made' in result)) return result.failed;
        made = result.made;
        if (params.abortSignal?.aborted) throw new Unrecorded(made);
        return generatedAnswer(copyOf(made));
      },
    );
    if (isFailedAnswer(answer)) throw 'error' in thrown ? thrown.error : failureError(answer.error);
    return made ?? replayedResult(answerResult(answer), answer.price);
  } catch (error) {
    if (error instanceof Unrecorded) return error.value as LanguageModelV4GenerateResult;
    throw error;
  }
}

/** The error a call threw in this process, to throw it again as it was (not as recorded). */
interface Thrown {
  error?: unknown;
}

/**
 * What `call` (the model's `doStream` or `doGenerate`) made, or, when it threw, the failed
 * answer that records its error (kept in `thrown` for this process). A call that threw
 * because it was aborted rejects: it is not recorded.
 */
async function madeOrFailed<T>(
  call: () => PromiseLike<T>,
  signal: AbortSignal | undefined,
  thrown: Thrown,
): Promise<{ made: T } | { failed: ModelAnswer }> {
  try {
    return { made: await call() };
  } catch (error) {
    if (signal?.aborted) throw error;
    thrown.error = error;
    return { failed: failedAnswer(error, 'call') };
  }
}

/**
 * `model.supportedUrls`, read when awaited rather than when the model is wrapped (a getter
 * may build a provider), or `{}` when reading it fails.
 */
function supportedUrlsWhenAsked(model: LanguageModelV4): PromiseLike<Record<string, RegExp[]>> {
  return {
    then: (onFulfilled, onRejected) =>
      Promise.resolve()
        .then(() => model.supportedUrls)
        .catch(() => ({}))
        .then(onFulfilled, onRejected),
  };
}
