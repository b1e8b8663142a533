import { WorkflowError } from '../errors/june-error.js';
import type { ApprovalPolicyAnswer, ApprovalRequest } from './approval-request.js';
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
 * policyAnswer(true, request); // { answer: { approved: true }, source: 'policy', automatic: true }
 * policyAnswer({ approved: false, answeredBy: 'ana', source: 'slack' }, request); // slack, not automatic
 * ```
 * @throws {WorkflowError} `approval-policy-invalid` when the policy returned anything else
 *   (`'yes'`, `{ approve: true }`): a typo must not deny, or approve, a call in silence.
 */
export function policyAnswer(
  returned: boolean | ApprovalPolicyAnswer | undefined,
  request: ApprovalRequest,
): { answer: GivenAnswer; source: ApprovalSourceName; automatic: boolean } | undefined {
  if (returned === undefined) return undefined;
  if (typeof returned === 'boolean')
    return { answer: { approved: returned }, source: 'policy', automatic: true };
  if (typeof returned !== 'object' || returned === null || typeof returned.approved !== 'boolean')
    throw new WorkflowError(
      'approval-policy-invalid',
      `june: the onApproval policy returned ${shown(returned)} for the "${request.tool}" call in step "${request.step}"; return true or false, undefined to leave the call to a person, or { approved: boolean, reason?, answeredBy?, source? }.`,
    );
  const { source, automatic, ...answer } = returned;
  const auto = automatic ?? answer.answeredBy === undefined;
  return { answer, source: source ?? (auto ? 'policy' : 'on-approval'), automatic: auto };
}

/** A returned value as a message shows it: JSON where it has one, else its type. */
function shown(value: unknown): string {
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}
