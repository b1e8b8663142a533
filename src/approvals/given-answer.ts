import type { ApprovalDecision } from './approval-request.js';

/**
 * Through which way an answer reached the run: `terminal` (`june run`'s prompt), `studio`
 * (June Studio, live or a stopped run it resumed), `web` (`june/web`'s chat handler),
 * `database` (a DBOS message: `june approve`, another process), `policy` (an automatic
 * `onApproval` decision, `june run --approve all|none`), `handle` (`handle.approve`/`deny`
 * in the program that started the run), `on-approval` (a person's answer an `onApproval`
 * function passed on), or a source's own name (`'slack'`).
 */
export type ApprovalSourceName =
  'terminal' | 'studio' | 'web' | 'database' | 'policy' | 'handle' | 'on-approval' | (string & {});

/**
 * An answer as a source gives it: the decision, and who gave it and when.
 * - `answeredBy`: free text naming who answered (`'ana@example.com'`, `'U024BE7LH'`); kept as given;
 * - `answeredAt`: when they answered (an ISO 8601 string or a `Date`). @default now. Give it
 *   when the answer waited somewhere before it reached the run (a file, a queue, a stopped
 *   run), so the record shows when the person answered rather than when the run read it.
 */
export interface GivenAnswer extends ApprovalDecision {
  answeredBy?: string;
  answeredAt?: string | Date;
}

/**
 * Where an answer came from, as every record of it keeps it (events, trace, journal, spans):
 * - `source`: through which way ({@link ApprovalSourceName});
 * - `answeredBy`: who, as the source named them (absent when it did not say);
 * - `answeredAt`: when, ISO 8601;
 * - `automatic`: true when a policy decided rather than a person (and for answers given
 *   again from a run's journal, as before).
 */
export interface AnswerOrigin {
  source: ApprovalSourceName;
  answeredBy?: string;
  answeredAt: string;
  automatic: boolean;
}
