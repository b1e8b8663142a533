import type { ApprovalDecision, ApprovalRequest } from './approval-request.js';
import type { ApprovalAnswerResult } from './approval-answer-result.js';

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

/**
 * What a source is handed when it is connected to a run's inbox: the run's pending
 * requests, and `answer`, which records the source's name on every answer it gives.
 */
export interface SourceInbox {
  /** The outermost run's id. */
  readonly runId: string;
  /** The requests waiting for an answer now, oldest first. */
  readonly pending: readonly ApprovalRequest[];
  /**
   * Answers the request `ref` (its `key`, or its `id`). Never throws: the result says
   * whether the answer was applied, or why not (answered already, withdrawn, unknown).
   */
  answer(ref: string, answer: GivenAnswer): ApprovalAnswerResult;
}

/**
 * A way for people to answer a run's approval requests: a chat bot, a ticket queue, a
 * dashboard. The inbox tells it about each request that starts to wait (`requested`) and
 * each that stops waiting (`settled`: answered by anyone, or withdrawn); the source answers
 * through the {@link SourceInbox} it was given in `connect`. Each answer is applied once,
 * whichever source gives it first; the others get an `answered` result.
 *
 * Every method is optional but `name`; a throw in one becomes a process warning, never a
 * failure of the run.
 *
 * @example
 * ```ts
 * // a chat bot: posts each request, answers when someone clicks
 * const slack: ApprovalSource = {
 *   name: 'slack',
 *   connect: (inbox) => bot.onClick((click) => inbox.answer(click.key, { approved: click.ok, answeredBy: click.user })),
 *   requested: (request) => bot.post(`${request.tool} in ${request.step} needs approval`, request.key ?? request.id),
 * };
 * run(<Release />, { approvalSources: [slack] });
 * ```
 */
export interface ApprovalSource {
  /** Recorded as the `source` of every answer it gives ({@link ApprovalSourceName}). */
  readonly name: ApprovalSourceName;
  /**
   * Called once, when the source is connected to a run's inbox; may return what disconnects
   * it, called once when the run ends or the source is disconnected (awaited when it returns
   * a promise).
   */
  connect?(inbox: SourceInbox): void | (() => void | Promise<void>);
  /** A request started to wait (those already waiting are told at `connect`). */
  requested?(request: ApprovalRequest, inbox: SourceInbox): void;
  /** A request stopped waiting: `result.status` is `applied` (answered, by this or another source) or `withdrawn`. */
  settled?(request: ApprovalRequest, result: ApprovalAnswerResult): void;
}
