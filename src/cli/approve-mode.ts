import type { ApprovalPolicy } from '../approvals/index.js';

/**
 * How `june run` answers approval requests (`--approve`): ask a person, approve all, deny
 * all, `studio`: wait for the answers given in June Studio (`june studio` on the same runs
 * folder), or `wait`: leave them pending (the run waits until it is stopped; `--resume`, or
 * an answer in Studio, takes it up again later, from another process).
 */
export type ApproveMode = 'ask' | 'all' | 'none' | 'studio' | 'wait';

/** The values `--approve` accepts. */
export const approveModes: readonly ApproveMode[] = ['ask', 'all', 'none', 'studio', 'wait'];

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
