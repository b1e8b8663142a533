import type { ApprovalPolicy } from '../approvals/index.js';
import { approveNoneReason, requestPolicyOptions } from '../approvals/request-policy.js';
import type { ApproveMode } from '../host/run-flags.js';

// `--approve`'s values are written with the other flags of `june run`
export { approveModes, type ApproveMode } from '../host/run-flags.js';

export { approveNoneReason };

/**
 * The `onApproval` policy for `--approve all` (approve every request) and `--approve none`
 * (deny every request, telling the model {@link approveNoneReason}); `undefined` for `ask`,
 * which leaves requests to a person, for `studio`, which leaves them to Studio, and for
 * `wait`, which leaves them pending. A policy's
 * answers are recorded in the trace as automatic.
 *
 * @example
 * ```ts
 * run(<Release />, { onApproval: approvalPolicy('none') });
 * ```
 */
export function approvalPolicy(mode: ApproveMode): ApprovalPolicy | undefined {
  return mode === 'all' || mode === 'none'
    ? requestPolicyOptions({ approve: mode }).onApproval
    : undefined;
}
