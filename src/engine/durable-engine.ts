import type {
  ApprovalDecision,
  AskedQuestion,
  BudgetAsk,
  GuardEscalation,
} from '../approvals/approval-request.js';
import type { ApprovalAnswerResult } from '../approvals/approval-answer-result.js';
import type { GivenAnswer } from '../approvals/approval-source.js';
import type { RunLogEvent } from '../events/run-event.js';
import type { ModelAnswer } from '../models/model-answer.js';
import type { Redactor } from '../redaction/redactor.js';

/**
 * Where a durable call happens in the run's tree:
 * - `step`: the step path from the outermost run (`research:findings` inside the composite
 *   tool `research`);
 * - `calls`: the call ids of the composite tool calls that lead there, outermost first
 *   (absent or empty in the outermost run). Two calls of one composite tool share a step
 *   path; their call ids tell them apart.
 *
 * Places are the same in every process that runs the same workflow with the same recorded
 * answers, so they (with an index or a call id) name a durable call across a crash.
 *
 * @example
 * ```ts
 * const place: DurablePlace = { step: 'research:findings', calls: ['plan#0.1'] };
 * ```
 */
export interface DurablePlace {
  step: string;
  calls?: string[];
}

export type { ModelAnswer };

/**
 * One model call, as the engine is asked to make it durably.
 * - `index`: the 0-based number of the call among the finished model calls at `place`,
 *   failed ones included (a `<Catch>` retry after a failed call asks under the next index;
 *   only a call that was aborted, or in flight at a crash, is made again under its index);
 * - `mode`: how it is asked now (`stream`, or `generate` in batch mode). A call answered in
 *   one mode may be given again in the other: the caller converts;
 * - `request`: the call's options as plain JSON (prompt, tools, settings; without the abort
 *   signal and headers; June's own form, see `modelRequestOf`), `requestHash` its SHA-256.
 *
 * `place` and `index` name the call (a stable step name such as `model research:findings@plan#0.1 #2`);
 * `requestHash` tells whether the workflow still asks the same thing there.
 */
export interface ModelCallAt {
  place: DurablePlace;
  index: number;
  mode: 'stream' | 'generate';
  request: unknown;
  requestHash: string;
}

/**
 * One tool call of a step, as the engine sees it:
 * - `call`: the call's id at its place (`go#0.1`: step id, index of the model call that asked
 *   for it there, position in its answer); with `place`, its identity across processes.
 *   Never key a call by `toolCallId`: providers repeat those.
 * - `tool`: the tool's name as the model called it; `input`: the model's input;
 * - `toolCallId`: the provider's id, kept for reading;
 * - `composite`: the call starts a child run (a composite tool or a `defineAgent` agent);
 *   its output is a `{ output, trace, usage }` object.
 */
export interface ToolCallAt {
  place: DurablePlace;
  call: string;
  tool: string;
  input: unknown;
  toolCallId: string;
  composite: boolean;
  /** Aborts with the run (or the calling composite call). */
  abortSignal?: AbortSignal;
}

/**
 * An approval answer, whether a policy (or a recording) gave it rather than a person, and
 * where it came from (`source`, `answeredBy`, `answeredAt`; see `AnswerOrigin`), which an
 * engine records with the answer and gives back to `replay`.
 */
export type ApprovalAnswer = ApprovalDecision & {
  automatic: boolean;
  source?: string;
  answeredBy?: string;
  answeredAt?: string;
};

/**
 * An answer that came from outside the process through the engine's store (another
 * process, a queue, a database): who gave it and when, and through what (`source`;
 * @default 'database').
 */
export type OutsideAnswer = GivenAnswer & { source?: string };

/**
 * One approval request and the ways to answer it, handed to {@link DurableEngine.approval}:
 * - `ask()` asks in this process: the run's `onApproval` policy, else whoever holds the run
 *   handle (`handle.approve`/`deny`, a terminal prompt); it emits `approval-request` and
 *   resolves once answered (rejects with `run-aborted` when the run aborts first);
 * - `replay(decision)` gives an answer recorded earlier (with its recorded `source`,
 *   `answeredBy` and `answeredAt`, when it has them): it resolves at once, and the run's
 *   events show it as automatic and replayed; nobody is asked;
 * - `answer(decision)` delivers an answer that came from outside the process (another
 *   process, a queue, a database) to the request `ask()` made: `ask()` then resolves with it
 *   (not automatic). It changes nothing once the request was answered or withdrawn; the
 *   result says which (see `ApprovalAnswerResult`).
 */
export interface ApprovalQuestion {
  place: DurablePlace;
  /** The tool call's id at its place (see {@link ToolCallAt.call}). */
  call: string;
  /** The request's id (the AI SDK's: a new one every time a call is asked about). */
  id: string;
  toolCallId: string;
  tool: string;
  input: unknown;
  /**
   * When the call is a `<Question>`: what it asks (its prompt, the JSON Schema of an
   * answer, its timeout), for the engine to record with the request and show to whoever
   * answers. Its answer is an `output` (an answer instead of the tool) or a denial.
   */
  question?: AskedQuestion;
  /**
   * When a `<Guard>` escalated the call: the guard's name, declaration and reason, for the
   * engine to record with the request (the approval's audit trail) and show to whoever answers.
   */
  guard?: GuardEscalation;
  /**
   * When a `<Budget>` asks to allow more before a model call: the budget, what it spent and
   * its cap (the request's `tool` is `june-budget` and `call` a call id of its own,
   * `<step>#<n>~budget.<i>.<k>`), for the engine to record with the request.
   */
  budget?: BudgetAsk;
  /**
   * The tool's input and output schemas as JSON Schema, when it has them: an engine whose
   * answers are given in another process publishes them with the request, so that process
   * can check an edited input or an answer instead of the tool before it is sent.
   * `answer` checks again with the tool's own schemas.
   */
  schemas?: { input?: Record<string, unknown>; output?: Record<string, unknown> };
  ask(): Promise<ApprovalAnswer>;
  replay(decision: ApprovalAnswer | ApprovalDecision): Promise<ApprovalAnswer>;
  answer(decision: OutsideAnswer): ApprovalAnswerResult;
}

/** How a run ended in this process, as {@link DurableEngine.finish} is told. */
export type DurableRunStatus = 'succeeded' | 'failed' | 'aborted';

/**
 * The conversation a run of a thread continues (`run(el, { thread })`): the thread's id, the
 * run's place in it, the agent whose conversation it is (`undefined`: the run's first agent
 * outside any other, in the run itself, not in a composite tool's run), and the messages that
 * agent starts from (AI SDK `ModelMessage`s, as plain JSON), before its own `messages` prop.
 */
export interface DurableThread {
  readonly id: string;
  readonly order: number;
  readonly agent?: string;
  readonly messages: readonly unknown[];
}

/**
 * The durability of one run (the outermost run and its child runs): the interpreter hands it
 * every piece of work whose result must survive the process, and asks it for approval
 * answers. June's file and memory journals implement it (`journalEngine()`); an engine over a
 * database or a durable execution system (DBOS's `runStep`, `recv`, `writeStream`) is another.
 *
 * What an implementation must guarantee (docs/durable-runs.md, "What June guarantees"):
 *
 * - **Finished work happens once.** A model call, a tool execution or an approval answer
 *   that finished is recorded before anything it led to happens (write-ahead): the promise a
 *   method returns settles only once the record is stored. When the run is taken up again
 *   (a resume, a recovery), a recorded call returns its recorded outcome without running its
 *   work; a tool's recorded error is thrown again.
 * - **Work in flight happens at least once.** Work that had not been recorded when the
 *   process died runs again.
 * - **Identity by place.** Calls are named by their place and index (model calls) or call id
 *   (tool calls, approvals), which are the same in every process; never by the provider's
 *   `toolCallId` or an approval id, nor by the order work started in: the tool calls of one
 *   turn (and composite calls' child runs) run at once, and a resume may start them in
 *   another order. A system that numbers steps as they start (DBOS) needs a map from place
 *   to record (June's DBOS engine keeps a table keyed by run id and place).
 * - **Causal order.** A run's records are stored in the order the methods were called and
 *   each after the previous one settled (the interpreter waits for a record before what
 *   depends on it), so any store keeps the order things happened in.
 * - **Recorded answers stand.** What was recorded decides, whatever today's code or options
 *   would decide; when the workflow no longer fits the record (a model asked something else,
 *   a recorded call of another tool or input, a denied call about to run), the engine fails
 *   with `journal-mismatch` before the work runs, and stops the run through
 *   {@link DurableRunStart.stop}.
 *
 * Child runs (composite tool calls) need nothing of their own: their calls have places under
 * the composite call, and a finished composite call is itself a recorded tool call whose
 * child run does not run again.
 *
 * @example
 * ```ts
 * const engine: DurableEngineFactory = async ({ runId }) => ({
 *   runId,
 *   failure: undefined,
 *   decidesApprovals: false,
 *   modelCall: (_call, work) => work(),
 *   toolCall: (_call, work) => work(),
 *   needsApproval: (_call, decide) => Promise.resolve(decide()).then(Boolean),
 *   approval: (question) => question.ask(),
 *   finish: async () => {},
 * });
 * run(<Release />, { engine });
 * ```
 */
export interface DurableEngine {
  /** The run's id (a resumed run keeps it; the engine's workflow id). */
  readonly runId: string;
  /**
   * The error the engine stopped the run with (a mismatch with the record, a failed write),
   * once it did: the run then fails with it rather than with `run-aborted`.
   */
  readonly failure: unknown;
  /**
   * True when recorded answers decide approvals (a resume or replay): then every tool's
   * approval goes through {@link needsApproval}, even a tool without `needsApproval` of its
   * own. False lets tools without one skip the engine.
   */
  readonly decidesApprovals: boolean;
  /**
   * Makes one model call durably: returns the recorded answer of the call at `call.place`
   * and `call.index` when there is one (after checking that `call.requestHash` is the
   * recorded one: else it throws `journal-mismatch` and stops the run), without running
   * `work`; otherwise runs `work`, records what it resolved with, and resolves with it once
   * the record is stored. A call whose model failed resolves too, with a failed answer (its
   * `error` set): record it like any other, so a resumed run fails that call again where it
   * failed and a `<Catch>` around it retries as it did. When `work` rejects (the call was
   * aborted) nothing is recorded and the rejection passes on: the call is made again next
   * time.
   *
   * `work` makes the call: a streamed call passes its text on live as it comes, and holds
   * its tool calls back until this method resolves, so nothing the call asked for happens
   * before it is recorded.
   *
   * The answer is June's own record ({@link ModelAnswer}: a format version, a provider
   * specification, parts or a result, or how the call failed): store it as plain data and
   * give it back as it was,
   * without reading it. An answer June cannot read (another format, by another June) fails
   * the run with `model-answer-unreadable`; one recorded by June 0.1 is read as it is.
   *
   * @throws {WorkflowError} `journal-mismatch` when the record asks something else, or when
   *   the engine answers every call (a replay) and has none here.
   * @throws {SystemError} `journal-write-failed` when the record cannot be stored.
   */
  modelCall(call: ModelCallAt, work: () => Promise<ModelAnswer>): Promise<ModelAnswer>;
  /**
   * Runs one tool execution durably. A recorded execution at `call.place` and `call.call`
   * gives its recorded output again (a promise), or throws its recorded error, without
   * running `work`. Otherwise `work()` runs (it returns what the tool's `execute` returns: a
   * value, a promise, or an async iterable of outputs whose last one is final) and its
   * outcome, output or error, is recorded before it is passed on. Return the same kind of
   * thing (an engine that cannot pass an iterable through may return a promise of its last
   * item; the outputs before it are then not shown). An execution stopped by its
   * `abortSignal` is not recorded.
   *
   * Before anything runs, a recorded call of another tool or input, or a call whose recorded
   * approval was a denial, fails with `journal-mismatch` (thrown through the returned promise).
   */
  toolCall(call: ToolCallAt, work: () => unknown): unknown;
  /**
   * Whether the tool call needs approval. What was recorded decides: a recorded request or
   * answer means yes, a recorded execution without one means no. Else `decide()` (the
   * tool's own `needsApproval`) decides; it is asked once per call in a process.
   */
  needsApproval(
    call: Omit<ToolCallAt, 'composite' | 'abortSignal'>,
    decide: () => boolean | PromiseLike<boolean>,
  ): Promise<boolean>;
  /**
   * Gets the answer to one approval request durably. A recorded answer for the call is given
   * again (`question.replay`); else the request is recorded before anyone is asked, the
   * answer is awaited (`question.ask()`, and, in an engine whose answers may come from
   * another process, from there through `question.answer`), and the answer is recorded
   * before this resolves: the tool runs only after that.
   */
  approval(question: ApprovalQuestion): Promise<ApprovalAnswer>;
  /**
   * Each event of the run's log (its child runs' included, each with its node and time), in order, already redacted, as it happens
   * (an engine may publish them for followers in other processes). Must not throw. Optional.
   */
  publish?(event: RunLogEvent): void;
  /**
   * Records how the run ended in this process, once, and waits for every record to be
   * stored. Called also when the run failed or was aborted (then with its error).
   */
  finish(status: DurableRunStatus, error?: unknown): Promise<void>;
  /** The thread this run continues, when it is a thread's run (see {@link DurableThread}). */
  readonly thread?: DurableThread;
  /**
   * The thread agent's whole conversation when it finished (history included), kept for the
   * thread's next run. Called at most once, before {@link finish}.
   */
  conversation?(agent: string, messages: readonly unknown[]): void;
}

/** What a {@link DurableEngineFactory} is told about the run it makes an engine for. */
export interface DurableRunStart {
  /** The run's id (the resumed run's id when taking a run up again). */
  runId: string;
  /** The workflow's name (a file path for `june run`, else the root component's name). */
  workflow: string;
  /** The root component's props, if given. */
  props?: Record<string, unknown>;
  /**
   * What to keep out of the records (the run's `redact` option, configured credentials):
   * an engine stores `redactor.value(record)`, and compares requests by the hash of their
   * redacted form.
   */
  redactor: Redactor;
  /** Stops the run (aborts it) with `reason`; an engine calls it once, when it cannot go on. */
  stop(reason: unknown): void;
  /**
   * Aborts with the run: an engine that waits while it is made (for another process to let
   * go of the run) stops waiting and rejects.
   */
  signal?: AbortSignal;
}

/**
 * Makes the engine of one run, before its first model call. It reads what it needs (a
 * recorded journal to take up again) and may fail the run with a {@link JuneError}
 * (`journal-missing`, `journal-exists`, `journal-mismatch`...), which `result` rejects with.
 * Pass it as `run(el, { engine })`.
 */
export type DurableEngineFactory = (run: DurableRunStart) => Promise<DurableEngine>;
