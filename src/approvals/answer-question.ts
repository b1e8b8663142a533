import type { ApprovalPolicyAnswer } from './approval-request.js';

/**
 * An answer to a question (`<Question>`), as an `onApproval` policy returns it: the value
 * is the person's answer, which the model reads as the question's result (`{ approved:
 * false, output: answer }`, the shape every source uses). Name who gave it with
 * `answeredBy` (then it is recorded as a person's answer), else it is the policy's own.
 *
 * @example
 * ```ts
 * run(<Release />, {
 *   onApproval: (request) => (request.kind === 'question' ? answerQuestion('staging') : undefined),
 * });
 * ```
 */
export function answerQuestion(
  answer: unknown,
  by: Omit<ApprovalPolicyAnswer, 'approved' | 'output' | 'input' | 'reason'> = {},
): ApprovalPolicyAnswer {
  return { ...by, approved: false, output: answer };
}
