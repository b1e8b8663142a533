/**
 * A tool call waiting for a person's answer.
 * - `id`: answer with `handle.approve(id)` or `handle.deny(id, reason)`;
 * - `tool`: the tool's name as the model called it; `input`: the model's input, as JSON;
 * - `step`: the step path from the outermost run, joined by `:` (`research:findings`);
 * - `toolCallId`: the provider's id for the call;
 * - `key`: the call's key, as `toolCallContext().key` gives it (`<runId>/<calls…>/<call>`,
 *   e.g. `20261130-120301-3fa94c1e27b0/release#0.0`). Unlike `id` (new every time the call is
 *   asked about), it names the same call on every resume of a run with a journal, so an
 *   answer given after the process stopped can find its request again (see `june/web`).
 */
export interface ApprovalRequest {
  id: string;
  tool: string;
  input: unknown;
  step: string;
  toolCallId: string;
  key?: string;
}

/**
 * An answer to an {@link ApprovalRequest}. A `reason` on a denial reaches the model.
 * - `input` (with `approved: true`): approve the call with this input instead of the
 *   model's (an edit). The tool's input schema checks it when it is given; the tool runs
 *   with it, and the model's conversation shows the call with it (see docs/approvals.md);
 * - `output` (with `approved: false`): answer instead of the tool: it does not run, and the
 *   model reads `output` as the tool's result. The tool's output schema, when it has one,
 *   checks it when it is given.
 *
 * Both are JSON values; `undefined` means none was given.
 */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
  input?: unknown;
  output?: unknown;
}

/**
 * What an {@link ApprovalPolicy} may return besides `true`/`false`: a decision, and, when a
 * person gave it (a chat app that asked someone), who (`answeredBy`), when (`answeredAt`,
 * ISO 8601 or a `Date`; default now) and through what (`source`, such as `'slack'`; default
 * `'on-approval'`). A decision with `answeredBy` is recorded as a person's answer, not as
 * automatic, unless `automatic: true` says the policy decided by itself and only names itself.
 */
export interface ApprovalPolicyAnswer extends ApprovalDecision {
  answeredBy?: string;
  answeredAt?: string | Date;
  source?: string;
  automatic?: boolean;
}

/**
 * An approval policy (`run(el, { onApproval })`), asked first about every request: return
 * `true`/`false` or a decision to answer, or `undefined` to leave the request to a person
 * (`handle.approve`/`deny`, an approval source). Its own decisions are recorded as automatic,
 * through `policy`; a decision that names who answered (`answeredBy`, see
 * {@link ApprovalPolicyAnswer}) is recorded as that person's.
 *
 * @example
 * ```ts
 * // automatic: everything but deploys
 * const policy: ApprovalPolicy = (request) => request.tool !== 'deploy' || undefined;
 * // a person's answer, asked in a chat app
 * const asked: ApprovalPolicy = async (request) => {
 *   const reply = await chat.ask(`May I run ${request.tool}?`);
 *   return { approved: reply.yes, answeredBy: reply.user, source: 'chat' };
 * };
 * ```
 */
export type ApprovalPolicy = (
  request: ApprovalRequest,
) =>
  boolean | ApprovalPolicyAnswer | undefined | Promise<boolean | ApprovalPolicyAnswer | undefined>;
