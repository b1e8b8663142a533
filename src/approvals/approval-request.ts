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

/** An answer to an {@link ApprovalRequest}. A `reason` on a denial reaches the model. */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
}

/**
 * An automatic approval policy: return `true`/`false` or a decision to answer, or
 * `undefined` to leave the request to a person (`handle.approve`/`deny`).
 * Answers it gives are recorded in the trace as automatic.
 */
export type ApprovalPolicy = (
  request: ApprovalRequest,
) => boolean | ApprovalDecision | undefined | Promise<boolean | ApprovalDecision | undefined>;
