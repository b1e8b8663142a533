import type { ApprovalAnswerResult } from '../approvals/approval-answer-result.js';
import { JuneError } from '../errors/june-error.js';
import { StudioRequestError } from './studio-request-error.js';

/** Why an answer was not taken: answered already, or the call is not waiting (withdrawn, never asked). */
export interface AnswerRefusal {
  status: Exclude<ApprovalAnswerResult['status'], 'applied'>;
  message: string;
}

/**
 * The HTTP form of an answer Studio did not take: `studio-approval-unknown` (409), whatever
 * the reason, with the sentence that says which, and the reason's status as its `refusal`.
 *
 * @example
 * ```ts
 * throw answerRefused({ status: 'answered', message: 'june: the call "k" of run "r1" was answered already; ...' });
 * ```
 */
export function answerRefused(refusal: AnswerRefusal): StudioRequestError {
  return new StudioRequestError('studio-approval-unknown', refusal.message, 409, refusal.status);
}

/**
 * An edit or an answer instead of the tool that does not fit the tool's schema (a question's
 * answer that does not fit its answer schema, or a question approved without one), as Studio
 * answers it: 409 `studio-approval-invalid` with the run's message; the call still waits.
 * Other errors as they are.
 */
export function editRefused(error: unknown): unknown {
  if (
    JuneError.isInstance(error) &&
    (error.code === 'approval-input-invalid' ||
      error.code === 'approval-output-invalid' ||
      error.code === 'approval-answer-invalid' ||
      error.code === 'question-answer-missing')
  )
    return new StudioRequestError('studio-approval-invalid', error.message, 409, error.code);
  return error;
}
