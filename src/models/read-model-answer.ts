import { SystemError } from '../errors/june-error.js';
import {
  ANSWER_SPECS,
  MODEL_ANSWER_VERSION,
  type ModelAnswer,
  type ModelCallFailure,
} from './model-answer.js';

/**
 * A model answer a durable engine gave back (from a journal, a database row, a store of its
 * own), as a {@link ModelAnswer}:
 *
 * - a record of this format is taken as it is;
 * - the shape June 0.1 recorded (`{ parts }` or `{ result }`, no `version`: provider
 *   specification v3, AI SDK 6) is read as a record of spec `v3`, which replays as `v4`;
 * - a failed call's record (`error`, an object with a `name` and a `message`) is taken as it
 *   is (see {@link ModelCallFailure});
 * - anything else is refused, never guessed at.
 *
 * @param stored - what the engine gave back.
 * @param where - the recorded call in words, for the message (`model call 1 of step "plan" in run r1`).
 * @throws {SystemError} `model-answer-unreadable` naming `where` and what is wrong (another
 *   format version, an unknown specification, neither parts nor a result).
 * @example
 * ```ts
 * readModelAnswer({ parts: v3Parts }, 'model call 1 of step "plan"'); // { version: 1, spec: 'v3', parts: v3Parts }
 * ```
 */
export function readModelAnswer(stored: unknown, where: string): ModelAnswer {
  const value = stored as Partial<
    Record<'version' | 'spec' | 'parts' | 'result' | 'error', unknown>
  > | null;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw unreadable(where, 'it is not an object');
  const body = bodyOf(value);
  if (!body)
    throw unreadable(
      where,
      'it has neither "parts" (a list) nor "result" (an object) nor "error" (a failed call: { name, message })',
    );
  if (value.version === undefined && value.spec === undefined)
    return { version: MODEL_ANSWER_VERSION, spec: 'v3', ...body };
  if (value.version !== MODEL_ANSWER_VERSION)
    throw unreadable(
      where,
      `it is of the format version ${JSON.stringify(value.version)}, and this June reads version ${MODEL_ANSWER_VERSION}`,
    );
  if (!(ANSWER_SPECS as readonly unknown[]).includes(value.spec))
    throw unreadable(
      where,
      `it holds an answer of the provider specification ${JSON.stringify(value.spec)}, and this June reads ${ANSWER_SPECS.join(' and ')}`,
    );
  return stored as ModelAnswer;
}

function bodyOf(
  value: Partial<Record<'parts' | 'result' | 'error', unknown>>,
): Pick<ModelAnswer, 'parts' | 'result' | 'error'> | undefined {
  if (isFailure(value.error)) return { error: value.error };
  if (Array.isArray(value.parts)) return { parts: value.parts };
  const result = value.result;
  if (typeof result === 'object' && result !== null && !Array.isArray(result))
    return { result: result as Readonly<Record<string, unknown>> };
  return undefined;
}

function isFailure(value: unknown): value is ModelCallFailure {
  const failure = value as Partial<Record<'name' | 'message', unknown>> | null | undefined;
  return (
    typeof failure === 'object' &&
    failure !== null &&
    typeof failure.name === 'string' &&
    typeof failure.message === 'string'
  );
}

function unreadable(where: string, why: string): SystemError {
  return new SystemError(
    'model-answer-unreadable',
    `june: the recorded answer of ${where} cannot be read: ${why}. Take the run up again with the June version that recorded it, or start a new run.`,
  );
}
