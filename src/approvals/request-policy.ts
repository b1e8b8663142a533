import type { ApprovalPolicy } from './approval-request.js';

/**
 * How a run's requests are answered with nobody asked, as a run host's request carries it
 * (`june run --approve all|none`): `all` approves every request, `none` denies it (telling
 * the model {@link approveNoneReason}). Either leaves a guard's escalation, a budget's
 * request for more and a question to a person, unless `escalations` is true
 * (`--approve-escalations`).
 */
export interface RequestPolicy {
  approve: 'all' | 'none';
  escalations?: boolean;
}

/** The reason a request denied by `--approve none` gives the model. */
export const approveNoneReason = 'denied by --approve none';

/**
 * The options of `run()` that answer a run's requests as `policy` says: an `onApproval`
 * policy (its answers are recorded as automatic, from the source `policy`), and with
 * `escalations`, `guardEscalations: 'on-approval'`.
 *
 * @example
 * ```ts
 * run(<Release />, { ...requestPolicyOptions({ approve: 'none' }) });
 * ```
 */
export function requestPolicyOptions(policy: RequestPolicy | undefined): {
  onApproval?: ApprovalPolicy;
  guardEscalations?: 'on-approval';
} {
  if (policy === undefined) return {};
  const onApproval: ApprovalPolicy =
    policy.approve === 'all' ? () => true : () => ({ approved: false, reason: approveNoneReason });
  return { onApproval, ...(policy.escalations ? { guardEscalations: 'on-approval' } : {}) };
}
