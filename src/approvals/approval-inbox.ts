import { JuneError, RunAbortedError, WorkflowError } from '../errors/june-error.js';
import { errorMessage } from '../errors/error-message.js';
import type { AnswerCheck } from './answer-check.js';
import type {
  ApprovalDecision,
  ApprovalPolicy,
  ApprovalRequest,
  AskedQuestion,
} from './approval-request.js';
import { isEscalation } from './approval-request.js';
import type { ApprovalAnswerResult, SettledAnswer } from './approval-answer-result.js';
import type {
  AnswerOrigin,
  ApprovalSource,
  ApprovalSourceName,
  GivenAnswer,
  SourceInbox,
} from './approval-source.js';
import { answerOrigin } from './answer-origin.js';
import { policyAnswer } from './policy-answer.js';
import { SourceSet } from './source-set.js';
import { withReason } from './with-reason.js';
import { unwatchUnanswered, watchUnanswered, type WaitingRun } from './unanswered-at-exit.js';
import { HeldAnswers, type HeldApproval } from './held-answers.js';
import { answerWord, checkAnswer, checkEdits } from './check-answer.js';
import { questionTimeout } from './question-timeout.js';
import { RequestWithdrawal } from './call-requests.js';

interface Pending {
  request: ApprovalRequest;
  /** The run (or child run) whose step asked. */
  runId: string;
  /** Checks an edited input or an answer given instead of the tool before it is applied. */
  check: AnswerCheck | undefined;
  resolve: (answer: SettledAnswer) => void;
  reject: (error: unknown) => void;
  /** Settles a question with a timeout when it passes; cleared once the request stops waiting. */
  timer?: ReturnType<typeof setTimeout>;
}

/** How a request stopped waiting, kept so a late answer learns why it came too late. */
type Settled =
  | { status: 'answered'; request: ApprovalRequest; answer: SettledAnswer }
  | { status: 'withdrawn'; request: ApprovalRequest; reason: string };

/**
 * What the inbox tells the run about, so it can emit events and update the trace. `runId`
 * is the run (or child run) whose step asked.
 */
export interface ApprovalListener {
  requested(request: ApprovalRequest, runId: string): void;
  /**
   * `replayed`: the answer came from the run's journal (a resumed or replayed run); then
   * `question` is what a question asked and `key` the call's key, since nobody was asked
   * again (no `requested`).
   */
  answered(
    id: string,
    answer: SettledAnswer,
    runId: string,
    replayed?: boolean,
    question?: AskedQuestion,
    key?: string,
  ): void;
  withdrawn(id: string, reason: string, runId: string): void;
}

/** Options of {@link ApprovalInbox}. */
export interface ApprovalInboxOptions {
  /** The run's `onApproval`: asked first about every request. */
  policy?: ApprovalPolicy;
  /**
   * Whether the policy is asked about requests a `<Guard>` escalated (`request.guard`) and
   * a `<Budget>`'s requests for more (`request.budget`). By default it is not: those go to a
   * person, so one blanket policy cannot pass every guard nor lift every budget.
   */
  policyAnswersGuards?: boolean;
  /**
   * The outermost run's id. Given, the inbox says on stderr which requests still wait when
   * the process is about to exit with nothing left that could answer them (see
   * `watchUnanswered`).
   */
  runId?: string;
}

/** How many settled requests an inbox remembers, to tell a late answer why it came too late. */
const SETTLED_KEPT = 10_000;

/**
 * A run's approval inbox: it holds the pending requests of the outermost run and every
 * child run, by stable key (`ApprovalRequest.key`, or the request's id when it has none),
 * takes answers from any number of {@link ApprovalSource}s (and the run handle, the
 * `onApproval` policy, the durable engine), and applies each request's first answer,
 * exactly once. A later answer to it, from the same source or another, even in the same
 * turn of the event loop, changes nothing and gets `answered`; one to a request that
 * stopped waiting gets `withdrawn`; one to no request of the run, `unknown`.
 *
 * Every answer is recorded with where it came from ({@link AnswerOrigin}): the source's
 * name, who answered, and when.
 *
 * @example
 * ```ts
 * const inbox = new ApprovalInbox(listener, { runId });
 * inbox.connect(slackSource);
 * const answer = await inbox.request(request, signal, runId); // resolves with the first answer
 * inbox.answer(request.key!, { approved: true, answeredBy: 'ana' }, 'studio'); // { status: 'answered', ... } when slack was first
 * ```
 */
export class ApprovalInbox {
  readonly #pending = new Map<string, Pending>();
  /** Request ids to their keys. */
  readonly #keys = new Map<string, string>();
  readonly #settled = new Map<string, Settled>();
  readonly #sources: SourceSet;
  readonly #listener: ApprovalListener;
  readonly #policy: ApprovalPolicy | undefined;
  readonly #policyAnswersGuards: boolean;
  readonly #waiting: WaitingRun | undefined;
  readonly #runId: string;
  readonly #held = new HeldAnswers();

  constructor(listener: ApprovalListener, options: ApprovalInboxOptions = {}) {
    this.#listener = listener;
    this.#policy = options.policy;
    this.#policyAnswersGuards = options.policyAnswersGuards === true;
    this.#runId = options.runId ?? '';
    const requests = () => this.requests;
    const held = () => this.held;
    this.#waiting =
      options.runId === undefined
        ? undefined
        : {
            runId: options.runId,
            get requests() {
              return requests();
            },
            get held() {
              return held();
            },
          };
    this.#sources = new SourceSet((source) => this.#sourceInbox(source));
  }

  /** The requests waiting for an answer, oldest first. */
  get requests(): ApprovalRequest[] {
    return [...this.#pending.values()].map((p) => p.request);
  }

  /**
   * The calls whose request was answered while another request of their model turn still
   * waits (see {@link turn}): they run once the turn's last request is answered.
   */
  get held(): HeldApproval[] {
    return this.#held.list;
  }

  /**
   * Announces the requests of one model turn by key (`ApprovalRequest.key`, else the id),
   * before any of them is asked: the step goes on once each one is answered, so until then
   * an answered one is held ({@link held}), also when it was answered before the others
   * were asked.
   */
  turn(keys: readonly string[]): void {
    this.#held.turn(keys);
  }

  /**
   * Connects a source: it is told about the requests waiting now and every later one, and
   * answers under its own name. @returns what disconnects it (awaits its own disconnect).
   */
  connect(source: ApprovalSource): () => Promise<void> {
    if (typeof source?.name !== 'string' || source.name.trim() === '')
      throw new WorkflowError(
        'approval-source-invalid',
        `june: an approval source needs a name (got ${typeof source?.name === 'string' ? '""' : String(source?.name)}): it is recorded as the source of every answer it gives, such as 'slack'.`,
      );
    return this.#sources.add(source, this.requests);
  }

  /** Disconnects every source (the run ended); resolves when each has let go. */
  close(): Promise<void> {
    return this.#sources.closeAll();
  }

  /**
   * Asks for an answer for a step of the run `runId`: the policy first (if any), then every
   * connected source and whoever holds the run handle. Resolves with the first answer; rejects
   * with {@link RunAbortedError} when `signal` aborts first (the request is withdrawn), or
   * with `approval-policy-failed` when the policy throws. With `replayed` (an answer the run's
   * journal recorded) the request is answered at once with it, as automatic and replayed,
   * and never pending. `check` checks an answer's edited `input` and its `output` (an answer
   * instead of the tool) against the tool's schemas before it is applied (see {@link answer}).
   */
  request(
    request: ApprovalRequest,
    signal: AbortSignal,
    runId: string,
    replayed?: ApprovalDecision & Partial<AnswerOrigin>,
    check?: AnswerCheck,
  ): Promise<SettledAnswer> {
    if (signal.aborted) return Promise.reject(new RunAbortedError(signal.reason));
    if (replayed) return Promise.resolve(this.#replay(request, runId, replayed));
    const key = request.key ?? request.id;
    const answer = new Promise<SettledAnswer>((resolve, reject) => {
      const timer = questionTimeout(request, (given) => this.answer(key, given, 'timeout', true));
      this.#pending.set(key, { request, runId, check, resolve, reject, ...(timer && { timer }) });
    });
    this.#keys.set(request.id, key);
    this.#settled.delete(key);
    if (this.#pending.size === 1 && this.#waiting) watchUnanswered(this.#waiting);
    const onAbort = () => this.#withdraw(key, signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    this.#listener.requested(request, runId);
    // sources hear of a request once the policy left it to a person; a guard's escalation and
    // a budget's request go to a person unless the run lets the policy answer those too
    if (this.#policy && (!isEscalation(request) || this.#policyAnswersGuards))
      void this.#applyPolicy(key, request);
    else this.#sources.requested(request);
    return answer.finally(() => signal.removeEventListener('abort', onAbort));
  }

  /**
   * Answers the request `ref` (its key or its id) from `source`, unless it was answered
   * already or stopped waiting: the result says which, and nothing throws for those.
   * An answer may approve with an edited `input`, or answer instead of the tool with an
   * `output` (see {@link ApprovalDecision}); both are checked against the tool's schemas
   * before anything changes.
   * @throws {WorkflowError} `approval-answer-invalid` when the answer is not one (an
   *   `answeredAt` that is not a time, an `input` on a denial, an `output` on an approval,
   *   a value with no JSON form); `approval-input-invalid` when the edited input does not
   *   fit the tool's input schema; `approval-output-invalid` when the output does not fit
   *   its output schema. Nothing changes: the request still waits for an answer.
   */
  answer(
    ref: string,
    given: GivenAnswer,
    source: ApprovalSourceName,
    automatic = false,
  ): ApprovalAnswerResult {
    const edits = checkAnswer(ref, given);
    const key = this.#pending.has(ref) ? ref : (this.#keys.get(ref) ?? ref);
    const entry = this.#pending.get(key);
    if (!entry) {
      const settled = this.#settled.get(key);
      if (settled) return settled;
      return { status: 'unknown', ref, pending: this.requests };
    }
    checkEdits(entry.request, entry.check, { approved: given.approved === true, ...edits });
    const settled: SettledAnswer = {
      approved: given.approved === true,
      ...withReason(given.reason),
      ...edits,
      ...answerOrigin(given, source, automatic),
    };
    this.#remove(key, { status: 'answered', request: entry.request, answer: settled });
    this.#held.settled(key, { request: entry.request, approved: settled.approved });
    this.#listener.answered(entry.request.id, settled, entry.runId);
    entry.resolve(settled);
    const result: ApprovalAnswerResult = {
      status: 'applied',
      request: entry.request,
      answer: settled,
    };
    this.#sources.settled(entry.request, result);
    return result;
  }

  /**
   * Answers the request `ref` as the run handle does (`handle.approve`/`deny`): like
   * {@link answer}, but an answer that cannot be applied throws.
   * @throws {WorkflowError} `approval-unknown` when no request with that id or key is
   *   pending (answered already, withdrawn, or never asked); nothing changes.
   */
  answerOrThrow(ref: string, given: GivenAnswer, source: ApprovalSourceName): void {
    const result = this.answer(ref, given, source);
    if (result.status === 'applied') return;
    const ids = this.requests.map((r) => `"${r.id}"`);
    const why =
      result.status === 'answered'
        ? `it was answered already (${answerWord(result.answer)} through ${result.answer.source}); an answer counts once`
        : result.status === 'withdrawn'
          ? `it was withdrawn (${result.reason})`
          : `${ids.length ? `pending: ${ids.join(', ')}` : 'none is pending'}`;
    throw new WorkflowError(
      'approval-unknown',
      `june: no approval request "${ref}" is pending; ${why}. Use an id from an approval-request event or handle.pendingApprovals.`,
    );
  }

  #replay(
    request: ApprovalRequest,
    runId: string,
    replayed: ApprovalDecision & Partial<AnswerOrigin>,
  ): SettledAnswer {
    const answer: SettledAnswer = {
      approved: replayed.approved,
      ...withReason(replayed.reason),
      ...(replayed.input !== undefined ? { input: replayed.input } : {}),
      ...(replayed.output !== undefined ? { output: replayed.output } : {}),
      ...answerOrigin(replayed, replayed.source ?? 'journal', true),
    };
    this.#held.settled(request.key ?? request.id, { request, approved: answer.approved });
    this.#listener.answered(request.id, answer, runId, true, request.question, request.key);
    return answer;
  }

  async #applyPolicy(key: string, request: ApprovalRequest): Promise<void> {
    try {
      const given = policyAnswer(await this.#policy!(request), request);
      if (!this.#pending.has(key)) return;
      if (given === undefined) this.#sources.requested(request);
      else this.answer(key, given.answer, given.source, given.automatic);
    } catch (error) {
      const entry = this.#pending.get(key);
      if (!entry) return;
      const withdrawn = {
        status: 'withdrawn' as const,
        request,
        reason: 'the onApproval policy threw',
      };
      this.#remove(key, withdrawn);
      this.#sources.settled(request, withdrawn);
      // what it returned was not an answer, or not a valid one: that error as it is
      const invalid =
        JuneError.isInstance(error) &&
        (error.code === 'approval-policy-invalid' ||
          error.code === 'approval-answer-invalid' ||
          error.code === 'approval-input-invalid' ||
          error.code === 'approval-output-invalid' ||
          error.code === 'question-answer-missing');
      entry.reject(
        invalid
          ? error
          : new WorkflowError(
              'approval-policy-failed',
              `june: the onApproval policy threw for the "${request.tool}" call in step "${request.step}": ${errorMessage(error)}`,
              { cause: error },
            ),
      );
    }
  }

  #withdraw(key: string, reason: unknown): void {
    const entry = this.#pending.get(key);
    if (!entry) return;
    const why = reason instanceof RequestWithdrawal ? reason.reason : 'the run was aborted';
    this.#remove(key, { status: 'withdrawn', request: entry.request, reason: why });
    this.#listener.withdrawn(entry.request.id, why, entry.runId);
    entry.reject(new RunAbortedError(reason));
    this.#sources.settled(entry.request, {
      status: 'withdrawn',
      request: entry.request,
      reason: why,
    });
  }

  #remove(key: string, settled: Settled): void {
    if (settled.status === 'withdrawn') this.#held.settled(key);
    clearTimeout(this.#pending.get(key)?.timer);
    this.#pending.delete(key);
    this.#settled.set(key, settled);
    if (this.#settled.size > SETTLED_KEPT) this.#settled.delete(this.#settled.keys().next().value!);
    if (this.#pending.size === 0 && this.#waiting) unwatchUnanswered(this.#waiting);
  }

  #sourceInbox(source: ApprovalSource): SourceInbox {
    const requests = () => this.requests;
    return {
      runId: this.#runId,
      get pending() {
        return requests();
      },
      answer: (ref, given, via) => this.answer(ref, given, via ?? source.name),
    };
  }
}
