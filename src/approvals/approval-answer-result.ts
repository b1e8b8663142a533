import type { ApprovalDecision, ApprovalRequest } from './approval-request.js';
import type { AnswerOrigin } from './given-answer.js';

/** An answer as it was applied: the decision and where it came from. */
export type SettledAnswer = ApprovalDecision & AnswerOrigin;

/**
 * What became of an answer given to a run's approval request, in this process
 * (`SourceInbox.answer`) or over a database (`RunClient.approve`, where `Request` is the
 * request as the database keeps it, `DbosApprovalRequest`):
 * - `applied`: it answered the request (`answer` is what was recorded);
 * - `answered`: the request was answered already (`answer` is the answer that stands); nothing changed;
 * - `withdrawn`: the request stopped waiting unanswered (the run was aborted, or its step
 *   ended first); nothing changed;
 * - `unknown`: no request of the run has that id or key (`pending` lists those waiting).
 */
export type ApprovalAnswerResult<Request extends object = ApprovalRequest> =
  | { status: 'applied'; request: Request; answer: SettledAnswer }
  | { status: 'answered'; request: Request; answer: SettledAnswer }
  | { status: 'withdrawn'; request: Request; reason: string }
  | { status: 'unknown'; ref: string; pending: Request[] };
