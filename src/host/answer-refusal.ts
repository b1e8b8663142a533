import type { ApprovalAnswerResult } from '../approvals/approval-answer-result.js';
import { StudioRequestError } from './studio-request-error.js';

/** Why an answer was not taken: answered already, or the call is not waiting (withdrawn, never asked). */
export interface AnswerRefusal {
  status: Exclude<ApprovalAnswerResult['status'], 'applied'>;
  message: string;
}

/**
 * The HTTP form of an answer Studio did not take: `studio-approval-unknown` (409), whatever
 * the reason, with the sentence that says which.
 *
 * @example
 * ```ts
 * throw answerRefused({ status: 'answered', message: 'june: the call "k" of run "r1" was answered already; ...' });
 * ```
 */
export function answerRefused(refusal: AnswerRefusal): StudioRequestError {
  return new StudioRequestError('studio-approval-unknown', refusal.message, 409);
}
