import type { ApprovalPolicyAnswer } from './approval-request.js';
import type { ApprovalSourceName, GivenAnswer } from './given-answer.js';

/**
 * What an `onApproval` policy returned, as an answer to apply: `undefined` leaves the
 * request to a person. `true`, `false` or a decision without `answeredBy` is the policy's
 * own: automatic, through `policy`. A decision with `answeredBy` passes on a person's answer
 * (a chat app that asked someone): not automatic, through its `source` (default
 * `on-approval`), unless it says `automatic: true` (a policy that names itself).
 *
 * @example
 * ```ts
 * policyAnswer(true); // { answer: { approved: true }, source: 'policy', automatic: true }
 * policyAnswer({ approved: false, answeredBy: 'ana', source: 'slack' }); // slack, not automatic
 * ```
 */
export function policyAnswer(
  returned: boolean | ApprovalPolicyAnswer | undefined,
): { answer: GivenAnswer; source: ApprovalSourceName; automatic: boolean } | undefined {
  if (returned === undefined) return undefined;
  if (typeof returned === 'boolean')
    return { answer: { approved: returned }, source: 'policy', automatic: true };
  const { source, automatic, ...answer } = returned;
  const auto = automatic ?? answer.answeredBy === undefined;
  return { answer, source: source ?? (auto ? 'policy' : 'on-approval'), automatic: auto };
}
