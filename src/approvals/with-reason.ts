/**
 * `{ reason }` when there is one, else `{}`: the one way an approval answer, a journal record
 * or a tool-approval response leaves out a reason nobody gave (never `reason: undefined`).
 *
 * @example
 * ```ts
 * const decision = { approved: false, ...withReason(reason) }; // { approved: false } without one
 * ```
 */
export function withReason(reason: string | undefined): { reason?: string } {
  return reason === undefined ? {} : { reason };
}
