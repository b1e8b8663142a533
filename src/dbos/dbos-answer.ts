import type { ApprovalAnswerResult } from '../approvals/approval-answer-result.js';
import type { DbosApprovalAnswer, DbosApprovalRequest } from './dbos-engine.js';

/**
 * What became of an answer given over the database (`RunClient.approve`), in the words
 * a run's inbox uses for an answer given in its process (`ApprovalAnswerResult`), with the
 * request as the database keeps it: `applied` (this answer was the first stored for the
 * request: it is the one the run gets), `answered` (another answer was stored first; `answer`
 * is that one, and this one changed nothing), `unknown` (the run asked nothing of that id;
 * `pending` lists what it waits for). Over the database a request is never `withdrawn`: an
 * ended run refuses answers with `dbos-run-finished`.
 */
export type DbosAnswerResult = ApprovalAnswerResult<DbosApprovalRequest>;

/** An answer to give with `RunClient.approve`. */
export interface DbosAnswer {
  /** The request to answer (`entry#2.0`); or `all`. */
  requestId?: string;
  /** Every request waiting for an answer now. */
  all?: boolean;
  approved: boolean;
  reason?: string;
  /**
   * Approve with this input instead of the model's (with `approved: true`): checked against
   * the tool's input schema before it is sent. A JSON value.
   */
  input?: unknown;
  /**
   * Answer instead of the tool (with `approved: false`): the tool does not run and the model
   * reads this as the call's result. Checked against the tool's output schema. A JSON value.
   */
  output?: unknown;
  /** Who answered (free text), recorded with the answer. */
  answeredBy?: string;
  /** Through what (`studio`, `web`, a source's own name). @default 'database' */
  source?: string;
}

/** The message that answers the request `id` as `answer` says, sent now. */
export function messageOf(id: string, answer: DbosAnswer): DbosApprovalAnswer {
  return {
    id,
    approved: answer.approved,
    ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
    ...(answer.input !== undefined ? { input: answer.input } : {}),
    ...(answer.output !== undefined ? { output: answer.output } : {}),
    ...(answer.answeredBy !== undefined ? { answeredBy: answer.answeredBy } : {}),
    answeredAt: new Date().toISOString(),
    ...(answer.source !== undefined ? { source: answer.source } : {}),
  };
}
