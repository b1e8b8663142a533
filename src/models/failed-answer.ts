import { APICallError } from '@ai-sdk/provider';
import { errorData } from '../errors/error-data.js';
import { revivedError } from '../errors/revived-error.js';
import { MODEL_ANSWER_VERSION, type ModelAnswer, type ModelCallFailure } from './model-answer.js';

/**
 * The record of a model call that failed (see {@link ModelCallFailure}): the error as data
 * with its blame, whether the AI SDK retries it (an `APICallError` with `isRetryable`; a
 * failure that came as an error part of a stream is never retried) and its HTTP status.
 *
 * @param from - `call` when the model's call threw (the AI SDK may retry it), `stream` when
 *   its stream failed once it had begun (the AI SDK never retries that).
 * @example
 * ```ts
 * failedAnswer(new Error('socket hang up'), 'call');
 * // { version: 1, spec: 'v4', error: { name: 'Error', message: 'socket hang up' } }
 * ```
 */
export function failedAnswer(error: unknown, from: 'call' | 'stream'): ModelAnswer {
  const failure: ModelCallFailure = errorData(error, { blame: true });
  if (APICallError.isInstance(error)) {
    if (error.statusCode !== undefined) failure.statusCode = error.statusCode;
    if (error.isRetryable && from === 'call') failure.retryable = true;
  } else if (from === 'call' && isRetryableProviderError(error)) failure.retryable = true;
  return { version: MODEL_ANSWER_VERSION, spec: 'v4', error: failure };
}

/** True for a model answer that records a failed call. */
export function isFailedAnswer(
  answer: ModelAnswer,
): answer is ModelAnswer & { error: ModelCallFailure } {
  return answer.error !== undefined;
}

/**
 * The error a recorded failure is thrown as again: with the recorded name, message and
 * code (a `JuneError` of the recorded blame when it has a code), and an `APICallError` when
 * it was retryable or had a status, so the AI SDK retries it as it did when it was recorded.
 * It retries at once (`retry-after-ms: 0`): nothing waits for a provider on a replay.
 *
 * @example
 * ```ts
 * throw failureError({ name: 'AI_APICallError', message: 'Overloaded', retryable: true, statusCode: 529 });
 * ```
 */
export function failureError(failure: ModelCallFailure): Error {
  if (failure.retryable !== true && failure.statusCode === undefined) return revivedError(failure);
  const error = new APICallError({
    message: failure.message,
    url: '',
    requestBodyValues: undefined,
    ...(failure.statusCode !== undefined ? { statusCode: failure.statusCode } : {}),
    ...(failure.retryable === true ? { responseHeaders: { 'retry-after-ms': '0' } } : {}),
    isRetryable: failure.retryable === true,
  });
  Object.defineProperty(error, 'name', { value: failure.name, configurable: true, writable: true });
  return error;
}

/** The AI Gateway's errors (marked as `GatewayError.isInstance` reads them) the AI SDK retries too. */
const GATEWAY_ERROR = Symbol.for('vercel.ai.gateway.error');

/** A gateway error that says it may be retried, as the AI SDK's retry reads it. */
function isRetryableProviderError(error: unknown): boolean {
  const marked = error as { [GATEWAY_ERROR]?: unknown; isRetryable?: unknown } | null;
  return (
    typeof marked === 'object' &&
    marked !== null &&
    marked[GATEWAY_ERROR] === true &&
    marked.isRetryable === true
  );
}
