import type { ApprovalPolicy } from '../approvals/index.js';
import type { ApproveMode } from '../host/run-flags.js';

// `--approve`'s values are written with the other flags of `june run`
export { approveModes, type ApproveMode } from '../host/run-flags.js';

/** The reason a request denied by `--approve none` gives the model. */
export const approveNoneReason = 'denied by --approve none';

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
  if (mode === 'all') return () => true;
  if (mode === 'none') return () => ({ approved: false, reason: approveNoneReason });
  return undefined;
}
