import type { ErrorData } from '../errors/error-data.js';
import type { ModelPrice } from './price.js';

/** The format version of the {@link ModelAnswer} records this June writes and reads. */
export const MODEL_ANSWER_VERSION = 1;

/**
 * The provider specifications a recorded answer may be in: `v4` for the answers this June
 * records (AI SDK 7), `v3` for those June 0.1 recorded (AI SDK 6). Each replays as `v4`.
 */
export const ANSWER_SPECS = ['v4', 'v3'] as const;

/** One of {@link ANSWER_SPECS}. */
export type AnswerSpec = (typeof ANSWER_SPECS)[number];

/**
 * A model's answer as June records it: the record a durable engine keeps for one model call
 * and gives back when the call is made again. It is June's own, versioned shape, so journals,
 * database rows and engines never depend on a provider specification:
 *
 * - `version`: the record's format ({@link MODEL_ANSWER_VERSION});
 * - `spec`: the provider specification its content is in ({@link AnswerSpec});
 * - `parts` (a streamed call's stream parts) or `result` (a generate call's whole result);
 * - or `error`, for a call that failed ({@link ModelCallFailure}): it is recorded as an answer
 *   of its own, so a resumed run fails that call again where it failed (a `<Catch>` then
 *   retries as it did), instead of taking the next call's answer for it.
 *
 * Engines treat it as opaque plain data (JSON, plus `Uint8Array` file data and `Date`
 * timestamps): store it, redact it, give it back. Only `src/models/` reads what is inside
 * (`answerParts`, `answerResult`, `answerToolCalls`), and it answers a call asked in either
 * mode from either form.
 *
 * @example
 * ```ts
 * const answer: ModelAnswer = { version: 1, spec: 'v4', parts: [{ type: 'finish', ... }] };
 * ```
 */
export interface ModelAnswer {
  readonly version: typeof MODEL_ANSWER_VERSION;
  readonly spec: AnswerSpec;
  /** A streamed call's parts, in `spec`'s terms (absent when `result` is set). */
  readonly parts?: readonly unknown[];
  /** A generate call's result, in `spec`'s terms (absent when `parts` is set). */
  readonly result?: Readonly<Record<string, unknown>>;
  /** How the call failed (absent for an answer; then `parts` and `result` are absent). */
  readonly error?: ModelCallFailure;
  /**
   * The price the call was made at ({@link ModelPrice}), when its model had one: a replay
   * reports the cost the call had when it was made. Absent in answers recorded before June
   * priced calls, and for a model nobody priced.
   */
  readonly price?: ModelPrice;
}

/**
 * A failed model call as June records it: the error the model threw, as plain data with its
 * blame (`errorData(error, { blame: true })`: `name`, `message`, a `JuneError`'s `code`),
 * plus what the AI SDK decides by: `retryable` when it retries such an error (a provider's
 * `APICallError` with `isRetryable`), and the response's HTTP `statusCode`, if any. Given back,
 * it is thrown again as an error with the same name, message and code (an `APICallError`
 * when it was one), so the AI SDK and the step see the failure they saw when it was recorded.
 *
 * @example
 * ```ts
 * const failed: ModelCallFailure = { name: 'AI_APICallError', message: 'Overloaded', retryable: true, statusCode: 529 };
 * ```
 */
export interface ModelCallFailure extends ErrorData {
  retryable?: boolean;
  statusCode?: number;
}
