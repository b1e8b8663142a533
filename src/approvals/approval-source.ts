import type { ApprovalRequest } from './approval-request.js';
import type { ApprovalAnswerResult } from './approval-answer-result.js';
import type { ApprovalSourceName, GivenAnswer } from './given-answer.js';

export type { AnswerOrigin, ApprovalSourceName, GivenAnswer } from './given-answer.js';

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
   * Answers the request `ref` (its `key`, or its `id`). The result says whether the answer
   * was applied, or why not (answered already, withdrawn, unknown). An answer may approve
   * with an edited `input` or answer instead of the tool with an `output` (see
   * `ApprovalDecision`).
   * @throws {WorkflowError} only for an answer that is not one, before anything changes (the
   *   request still waits): `approval-answer-invalid` (a bad `answeredAt`, an `input` on a
   *   denial, an `output` on an approval), `approval-input-invalid` (the edit does not fit
   *   the tool's input schema), `approval-output-invalid` (the output does not fit its
   *   output schema). The message names the tool and what failed: show it to whoever answered.
   * @param via - for a source that relays answers given another way (a file others write, a
   *   queue), the way this one came (`studio`, `cli`), recorded as its `source`.
   *   @default the source's own name
   */
  answer(ref: string, answer: GivenAnswer, via?: ApprovalSourceName): ApprovalAnswerResult;
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
/** What disconnects a source (a chat bot's listener, a poll): called once, awaited. */
export type SourceDisconnect = () => void | Promise<void>;

export interface ApprovalSource {
  /** Recorded as the `source` of every answer it gives ({@link ApprovalSourceName}). */
  readonly name: ApprovalSourceName;
  /**
   * Called once, when the source is connected to a run's inbox; may return what disconnects
   * it (or, when it connects asynchronously, a promise of that), called once when the run ends
   * or the source is disconnected (awaited when it returns a promise).
   */
  connect?(inbox: SourceInbox): void | SourceDisconnect | Promise<void | SourceDisconnect>;
  /** A request started to wait (those already waiting are told at `connect`). */
  requested?(request: ApprovalRequest, inbox: SourceInbox): void;
  /** A request stopped waiting: `result.status` is `applied` (answered, by this or another source) or `withdrawn`. */
  settled?(request: ApprovalRequest, result: ApprovalAnswerResult): void;
}
