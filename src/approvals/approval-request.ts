/**
 * A tool call waiting for a person's answer.
 * - `id`: answer with `handle.approve(id)` or `handle.deny(id, reason)`;
 * - `tool`: the tool's name as the model called it; `input`: the model's input, as JSON;
 * - `step`: the step path from the outermost run, joined by `:` (`research:findings`).
 */
export interface ApprovalRequest {
  id: string;
  tool: string;
  input: unknown;
  step: string;
  toolCallId: string;
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
