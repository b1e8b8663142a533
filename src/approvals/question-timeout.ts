import type { ApprovalRequest } from './approval-request.js';
import type { GivenAnswer } from './given-answer.js';

/**
 * The answer a question with a timeout gets when nobody answered it in time: its
 * `onTimeout.answer` (as an answer instead of the tool), else a denial whose reason the
 * model reads, `no answer within <timeoutMs> ms`.
 *
 * @example
 * ```ts
 * timeoutAnswer({ prompt: 'Which?', answerSchema: {}, timeoutMs: 500 }); // { approved: false, reason: 'no answer within 500 ms' }
 * ```
 */
export function timeoutAnswer(question: NonNullable<ApprovalRequest['question']>): GivenAnswer {
  if (question.onTimeout !== undefined)
    return {
      approved: false,
      output: question.onTimeout.answer,
      answeredBy: 'the question timeout',
    };
  return {
    approved: false,
    reason: `no answer within ${question.timeoutMs} ms`,
    answeredBy: 'the question timeout',
  };
}

/**
 * Starts the timer of a question with `timeoutMs`: when it passes, `settle` is called with
 * {@link timeoutAnswer} (the inbox applies it as automatic, through the source `timeout`,
 * unless another answer came first). `undefined` for a request without a timeout. The timer
 * keeps the process alive while it runs, since it is what will answer. A `settle` that
 * throws becomes a process warning.
 *
 * @example
 * ```ts
 * const timer = questionTimeout(request, (given) => inbox.answer(key, given, 'timeout', true));
 * clearTimeout(timer); // answered first
 * ```
 */
export function questionTimeout(
  request: ApprovalRequest,
  settle: (given: GivenAnswer) => void,
): ReturnType<typeof setTimeout> | undefined {
  const question = request.question;
  if (request.kind !== 'question' || question?.timeoutMs === undefined) return undefined;
  return setTimeout(() => {
    try {
      settle(timeoutAnswer(question));
    } catch (error) {
      process.emitWarning(
        `june: the timeout of the question "${request.tool}" in step "${request.step}" could not answer it: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }, question.timeoutMs);
}
