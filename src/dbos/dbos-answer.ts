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
  /** Who answered (free text), recorded with the answer. */
  answeredBy?: string;
  /** Through what (`studio`, `web`, a source's own name). @default 'database' */
  source?: string;
  /** With an approval: the call's input as it should run instead (plain JSON; the worker checks it against the tool's schema). */
  input?: unknown;
  /** With a denial: an answer instead of the tool, which the model reads as its result (plain JSON). */
  output?: unknown;
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
