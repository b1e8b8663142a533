import { errorData, errorMessage, SystemError, WorkflowError } from '../errors/index.js';
import { plainJson } from '../json/json-form.js';
import { withReason } from '../approvals/with-reason.js';
import { recordedOrigin } from '../approvals/answer-origin.js';
import type {
  ApprovalAnswer,
  ApprovalQuestion,
  DurableEngine,
  DurableEngineFactory,
  DurablePlace,
  DurableRunStart,
  DurableRunStatus,
  DurableThread,
  ModelAnswer,
  ModelCallAt,
  ToolCallAt,
} from '../engine/durable-engine.js';
import { stableJson } from '../json/stable-json.js';
import { hashModelRequest } from '../models/model-request.js';
import { recordedExecution } from '../engine/recorded-execution.js';
import { revivedError } from './journal-codec.js';
import { JournalIndex, retriedFailuresDropped } from './journal-index.js';
import {
  JOURNAL_VERSION,
  toolKey,
  type JournalHeader,
  type JournalPlace,
  type JournalRecord,
  type JournalThread,
  type ThreadConversation,
} from './journal-record.js';
import { journalLabel, type JournalStore } from './journal-store.js';
import type { RunLease } from './run-lease.js';
import { PromptDeltas } from './prompt-deltas.js';
import { loadJournal } from './load-journal.js';
import { readRunJournal } from './read-run-journal.js';
import { checkThreadId, listThread, threadConversation } from './thread.js';
import {
  journalCallChanged,
  journalCallMissing,
  journalMismatch,
  type ReplayOf,
} from '../engine/journal-mismatch.js';

/** How a run keeps its journal: where, and whether it takes a run up again or replays a recording. */
export interface JournalEngineOptions {
  /** Where to write the run's journal (and, with `resume`, where to read it). */
  store?: JournalStore;
  /** Take the run up again from its journal in `store` (the run's id names it). */
  resume?: boolean;
  /** A recording (records, or a journal file's path) that answers every model call. */
  replay?: string | readonly JournalRecord[];
  /** With `replay`: answer tool calls from the recording too. @default false */
  replayTools?: boolean;
  /** Where the run stands in a distributed trace (OpenTelemetry), kept in its journal. */
  traceContext?: JournalTraceContext;
  /**
   * The run's lease, taken already (`store.lease(runId)`, before reading what the run needs
   * from its journal): the journal takes none of its own and lets go of this one when the
   * run ends. Without it, the journal takes the lease itself when it opens.
   */
  lease?: RunLease;
  /** The hold of a new run's `thread`, taken already: the journal takes none of its own. */
  threadLease?: RunLease;
  /**
   * When another process holds the run: wait until it lets go, instead of failing with
   * `run-owned`. @default false
   */
  waitForOwner?: boolean;
  /**
   * Makes the run the thread's next run (a new run; a resumed one is of the thread its
   * journal names): it holds the thread while it runs (`thread-busy` for another, or it
   * waits with `waitForOwner`), and its thread agent starts from the conversation the
   * thread's last run left. Needs a `store` that runs threads (`threadLease`).
   */
  thread?: string;
  /** The `name` of the agent whose conversation the thread continues. @default the run's first outermost agent */
  threadAgent?: string;
}

/**
 * A run's OpenTelemetry trace context as its journal keeps it (W3C `traceparent` values):
 * `current()` goes into a new journal's header and into a resume record; a resumed run is
 * given the ones recorded before (`resumedFrom`, the original run's first), to link to them.
 */
export interface JournalTraceContext {
  /** The run span's `traceparent` now, or `undefined` when it has none. */
  current(): string | undefined;
  /** On resume: the `traceparent`s of the run's earlier parts, oldest first. */
  resumedFrom(traceparents: string[]): void;
}

/** Options of {@link RunJournal.open}: the run, and how it keeps its journal. */
export type RunJournalOptions = DurableRunStart & JournalEngineOptions;

/**
 * The durable engine of June's journals ({@link RunJournal}) as a factory for
 * `run(el, { engine })`: a journal in `store`, taken up again with `resume`, or a replay of
 * a recording. `run()`'s `journal`, `resume` and `replay` options make one.
 *
 * @example
 * ```tsx
 * const handle = run(<Release />, { engine: journalEngine({ store: fileJournalStore() }) });
 * ```
 */
export function journalEngine(options: JournalEngineOptions): DurableEngineFactory {
  return (start) => RunJournal.open({ ...start, ...options });
}

/**
 * A run's journal while it runs: June's first {@link DurableEngine}, over a
 * {@link JournalStore} (a file, memory, a database). It is write-ahead: each record is stored
 * before anything it led to happens (a model call's record before its tool calls reach the
 * AI SDK, an approval request before a person is asked, an answer before the tool runs), and
 * a run's records are stored one after another, in the order they were written (causal
 * order), whatever the store. When resuming or replaying, it answers what already finished
 * from the recorded journal; what the journal recorded decides, whatever today's code or
 * options would decide.
 *
 * - Resume (`resume`): reads the run's journal; a model call recorded at the same place and
 *   index is replayed (its request must hash the same, else `journal-mismatch`), others are
 *   made; recorded tool calls and approval answers are given again (a recorded call of
 *   another tool or input fails with `journal-mismatch` before anything runs). New records
 *   are appended to the same journal, after a `resume` record.
 * - Replay (`replay`): every model call must come from the recording; tool calls run unless
 *   `replayTools`. With a `store`, the new run's journal gets every record, replayed or not.
 *
 * Tool calls are known by place and call id, never by `toolCallId` alone.
 *
 * @example
 * ```ts
 * const journal = await RunJournal.open({ runId, workflow: 'release.tsx', store: fileJournalStore(), redactor, stop: (reason) => controller.abort(reason) });
 * await journal.finish('succeeded');
 * ```
 */
export class RunJournal implements DurableEngine {
  /** The error that stopped the run, once the journal stopped it. */
  failure: unknown;
  readonly #options: RunJournalOptions;
  readonly #index: JournalIndex | undefined;
  readonly #label: string;
  readonly #replayOnly: boolean;
  readonly #replayTools: boolean;
  readonly #copy: boolean;
  readonly #deltas = new PromptDeltas();
  /** The calls (by {@link toolKey}) approved with an edited input in this process. */
  readonly #edited = new Set<string>();
  /** The last write: each write starts once the one before it is stored. */
  #queue: Promise<void> = Promise.resolve();
  #finished = false;
  /** The run's lease in its store, held from open until the run finished. */
  #lease: RunLease | undefined;
  /** The thread's lease, for a thread's run: held from open until the run finished. */
  #threadLease: RunLease | undefined;
  /** The thread agent's conversation, once it finished: written with `run-finish`. */
  #conversation: ThreadConversation | undefined;
  /** The thread the run continues, for a thread's run. */
  readonly thread: DurableThread | undefined;

  private constructor(
    options: RunJournalOptions,
    index: JournalIndex | undefined,
    label: string,
    thread?: DurableThread,
  ) {
    this.thread = thread;
    this.#options = options;
    this.#index = index;
    this.#label = label;
    this.#replayOnly = options.replay !== undefined;
    this.#replayTools = options.replay !== undefined ? options.replayTools === true : true;
    this.#copy = options.replay !== undefined;
  }

  /** The run's id. */
  get runId(): string {
    return this.#options.runId;
  }

  /** True when a recorded journal answers (a resume or a replay). */
  get decidesApprovals(): boolean {
    return this.#index !== undefined;
  }

  /**
   * Opens the journal of a run: takes the run's lease in the store (or uses the one given;
   * a resume before it reads the journal, a new run once its journal is created), reads what
   * it resumes or replays, and creates the journal
   * with its header (a new run, atomically: see {@link JournalStore.create}) or writes a
   * `resume` record.
   *
   * @throws {WorkflowError} `run-resume-invalid` (resume without a store), `journal-missing`
   *   (no journal for the run), `journal-exists` (a new run whose id already has one),
   *   `journal-mismatch` (the journal is of another workflow or run), `journal-unreadable`
   *   (a replay file that cannot be read), `run-replay-invalid` (replay records without a header).
   * @throws {SystemError} `journal-corrupt` for a bad record (the store names file and line),
   *   `journal-write-failed` when the store cannot create the journal, `run-owned` when
   *   another process (or run) holds the run's lease in the store (see
   *   {@link JournalStore.lease}; with `waitForOwner`, it waits instead).
   */
  static async open(options: RunJournalOptions): Promise<RunJournal> {
    // a resume owns the run before it reads the journal; a new run creates its journal first
    // (of two runs given one id, the second fails with journal-exists), then owns it
    let lease = options.resume ? await ownRun(options) : undefined;
    const held: { thread?: RunLease } = {};
    try {
      const journal = await RunJournal.#open(options, held);
      lease ??= await ownRun(options);
      journal.#lease = lease;
      journal.#threadLease = held.thread;
      return journal;
    } catch (error) {
      await lease?.release();
      await held.thread?.release();
      throw error;
    }
  }

  static async #open(options: RunJournalOptions, held: { thread?: RunLease }): Promise<RunJournal> {
    const { store, runId } = options;
    if (options.resume) {
      if (!store)
        throw new WorkflowError(
          'run-resume-invalid',
          `june: resuming the run ${runId} needs its journal: pass journal: fileJournalStore() (or the store it was written to) with resume.`,
        );
      const records = await readRunJournal(store, runId, options.workflow);
      const recorded = (records[0] as JournalHeader).thread;
      if (options.thread !== undefined && recorded?.id !== options.thread)
        throw new WorkflowError(
          'run-resume-invalid',
          `june: run ${runId} is ${recorded ? `of thread ${recorded.id}` : 'of no thread'}, not of thread ${options.thread}; a resumed run stays in its own thread: leave out thread.`,
        );
      const first = records[0] as JournalHeader;
      const journal = new RunJournal(
        options,
        new JournalIndex(retriedFailuresDropped(records)),
        journalLabel(store, runId),
        recorded
          ? await holdThread(options, store, recorded, held)
          : // a fork of a thread's run: the conversation its run started from, no hold
            await replayedThread(store, first.threadFrom),
      );
      options.traceContext?.resumedFrom(recordedTraceparents(records));
      const traceparent = options.traceContext?.current();
      await journal.#write({
        type: 'resume',
        version: JOURNAL_VERSION,
        ...(traceparent !== undefined ? { traceparent } : {}),
        at: now(),
      });
      if (journal.failure !== undefined) throw journal.failure;
      return journal;
    }
    let index: JournalIndex | undefined;
    let label = '';
    if (options.replay !== undefined) {
      const records =
        typeof options.replay === 'string' ? await loadJournal(options.replay) : options.replay;
      if (records[0]?.type !== 'journal') {
        throw new WorkflowError(
          'run-replay-invalid',
          'june: replay takes a recorded journal: its records, header first (from loadJournal(path)), or the path of a journal.jsonl file.',
        );
      }
      index = new JournalIndex(records);
      label = `the recording ${typeof options.replay === 'string' ? options.replay : `of run ${index.header.runId}`}`;
      if (options.replayTools !== true) refuseUnfinished(records, label);
    }
    const thread =
      options.thread !== undefined
        ? await startThread(options, store, held)
        : await replayedThread(store, index?.header.thread ?? index?.header.threadFrom);
    // a replay of a thread run starts from its history, but is no run of the thread
    const own = options.replay === undefined ? thread : undefined;
    if (store) await create(store, runId, header(options, own));
    return new RunJournal(options, index, label, thread);
  }

  /** @inheritdoc */
  async modelCall(call: ModelCallAt, work: () => Promise<ModelAnswer>): Promise<ModelAnswer> {
    const { place, index } = call;
    const requestHash = this.#redactedHash(call.request, call.requestHash);
    const recorded = this.#index?.modelCall(place, index);
    if (recorded) {
      if (recorded.requestHash !== requestHash)
        throw this.#stop(
          journalMismatch(
            this.#replayOnly ? 'replay' : 'resume',
            this.#label,
            place,
            index,
            this.#index!.wholeRequest(recorded),
            // the recorded request is kept redacted: show the new one the same way
            this.#options.redactor ? this.#options.redactor.value(call.request) : call.request,
            this.#replayOf(),
          ),
        );
      const stored = this.#deltas.encode(frameOf(place), call.request, requestHash);
      if (this.#copy) {
        const { promptBase: _base, ...rest } = recorded;
        await this.#write({ ...rest, ...stored, at: now() });
      }
      return recorded.answer;
    }
    if (this.#replayOnly)
      throw this.#stop(journalCallMissing(this.#label, place, index, this.#replayOf()));
    const answer = await work();
    if (this.failure !== undefined) throw this.failure;
    await this.#write({
      type: 'model-call',
      ...where(place),
      index,
      mode: call.mode,
      requestHash,
      ...this.#deltas.encode(frameOf(place), call.request, requestHash),
      answer,
      at: now(),
    });
    if (this.failure !== undefined) throw this.failure;
    return answer;
  }

  /** @inheritdoc */
  toolCall(call: ToolCallAt, work: () => unknown): unknown {
    const { place } = call;
    const key = toolKey(place, call.call);
    try {
      const answer = this.#index?.answer(key);
      this.#checkCall(place, call, this.#index?.toolCall(key) ?? this.#requested(key));
      if (answer && !answer.approved)
        throw this.#stop(
          journalCallChanged(
            this.#label,
            place,
            call,
            'its approval was denied, yet the tool was about to run',
            undefined,
            this.#replayOnly ? this.#replayOf() : undefined,
          ),
        );
    } catch (error) {
      return Promise.reject(error);
    }
    const recorded = this.#replayTools ? this.#index?.toolCall(key) : undefined;
    if (recorded) {
      return (async () => {
        if (this.#copy) await this.#write({ ...recorded, at: now() });
        if (recorded.error) throw revivedError(recorded.error);
        return recorded.output;
      })();
    }
    const record = (outcome: { output: unknown } | { error: unknown }) => {
      if (call.abortSignal?.aborted || this.failure !== undefined) return Promise.resolve();
      return this.#write({
        type: 'tool-call',
        ...where(place),
        call: call.call,
        toolCallId: call.toolCallId,
        tool: call.tool,
        input: plainJson(call.input),
        ...('output' in outcome
          ? { output: outcome.output }
          : { error: errorData(outcome.error, { blame: true }) }),
        at: now(),
      });
    };
    return recordedExecution(work, record);
  }

  /** @inheritdoc */
  async needsApproval(
    call: Omit<ToolCallAt, 'composite' | 'abortSignal'>,
    decide: () => boolean | PromiseLike<boolean>,
  ): Promise<boolean> {
    const key = toolKey(call.place, call.call);
    const recorded = this.#index?.answer(key) ?? this.#index?.request(key);
    if (recorded) {
      this.#checkCall(call.place, call, this.#index?.request(key));
      return true;
    }
    if (this.#replayTools && this.#index?.toolCall(key)) return false;
    return (await decide()) === true;
  }

  /**
   * Answers one approval request through the journal: a recorded answer is given again
   * (`question.replay`: answered at once, marked as replayed); otherwise the request is
   * recorded (stored before `question.ask()` shows it), asked, and its answer stored before
   * the tool may run.
   */
  async approval(question: ApprovalQuestion): Promise<ApprovalAnswer> {
    const { place, call } = question;
    const key = toolKey(place, call);
    const requested = {
      type: 'approval-request' as const,
      ...where(place),
      call,
      toolCallId: question.toolCallId,
      tool: question.tool,
      input: plainJson(question.input),
      ...(question.question !== undefined ? { question: question.question } : {}),
      ...(question.guard !== undefined ? { guard: question.guard } : {}),
      ...(question.budget !== undefined ? { budget: question.budget } : {}),
      ...(question.schemas?.input ? { inputSchema: question.schemas.input } : {}),
      ...(question.schemas?.output ? { outputSchema: question.schemas.output } : {}),
      at: now(),
    };
    const recordedRequest = this.#index?.request(key);
    this.#checkCall(place, question, recordedRequest);
    const answer = this.#index?.answer(key);
    if (answer) {
      if (this.#copy) {
        await this.#write(requested);
        await this.#write({ ...answer, at: now() });
      }
      return question.replay({
        approved: answer.approved,
        ...withReason(answer.reason),
        ...edits(answer),
        automatic: answer.automatic,
        // a journal written before answers kept their origin: when the answer was recorded
        ...recordedOrigin({ answeredAt: answer.at, ...answer }),
      });
    }
    if (this.#copy || !recordedRequest) await this.#write(requested);
    if (this.failure !== undefined) throw this.failure;
    const decision = await question.ask();
    if (decision.input !== undefined) this.#edited.add(key);
    await this.#write({
      type: 'approval-answer',
      ...where(place),
      call,
      toolCallId: question.toolCallId,
      approved: decision.approved,
      ...withReason(decision.reason),
      ...edits(decision),
      automatic: decision.automatic,
      ...recordedOrigin(decision),
      at: now(),
    });
    if (this.failure !== undefined) throw this.failure;
    return decision;
  }

  /** Keeps the thread agent's conversation, written with the run's `run-finish` record. */
  conversation(agent: string, messages: readonly unknown[]): void {
    if (this.thread) this.#conversation = { agent, messages: [...messages] };
  }

  /**
   * Writes how the run ended (with a thread agent's conversation), waits for every write,
   * then lets go of the run's lease and its thread's.
   */
  async finish(status: DurableRunStatus, error?: unknown): Promise<void> {
    if (this.#finished) return;
    this.#finished = true;
    try {
      await this.#write({
        type: 'run-finish',
        status,
        ...(error !== undefined ? { error: errorData(error, { blame: true }) } : {}),
        ...(this.#conversation ? { conversation: this.#conversation } : {}),
        at: now(),
      });
    } finally {
      await this.#lease?.release();
      await this.#threadLease?.release();
    }
  }

  /** A recorded call at this place and call id must be of the same tool with the same input; else `journal-mismatch` (thrown, and the run stops). */
  #checkCall(
    place: DurablePlace,
    call: { call: string; tool: string; input: unknown },
    recorded: { tool: string; input: unknown } | undefined,
  ): void {
    if (!recorded) return;
    // the journal keeps inputs redacted: compare like with like
    const input = this.#options.redactor
      ? this.#options.redactor.value(plainJson(call.input))
      : plainJson(call.input);
    const sides = {
      recorded: { tool: recorded.tool, input: recorded.input },
      current: { tool: call.tool, input },
    };
    if (recorded.tool !== call.tool)
      throw this.#stop(
        journalCallChanged(
          this.#label,
          place,
          call,
          `it was a call of "${recorded.tool}" when the run was recorded, now of "${call.tool}"`,
          sides,
          this.#replayOnly ? this.#replayOf() : undefined,
        ),
      );
    if (recorded.input !== undefined && stableJson(recorded.input) !== stableJson(input)) {
      throw this.#stop(
        journalCallChanged(
          this.#label,
          place,
          call,
          `its input was ${stableJson(recorded.input)} when the run was recorded, now ${stableJson(input)}`,
          sides,
          this.#replayOnly ? this.#replayOf() : undefined,
        ),
      );
    }
  }

  /**
   * What the call at `key` was asked with, to check a call about to run against: its
   * recorded request, but with no input to compare when its answer (recorded, or given in
   * this process) edited the input: the call runs with the edit, as the tool's schema read it.
   */
  #requested(key: string): { tool: string; input: unknown } | undefined {
    const request = this.#index?.request(key);
    if (!request) return undefined;
    const edited = this.#index?.answer(key)?.input !== undefined || this.#edited.has(key);
    return edited ? { tool: request.tool, input: undefined } : request;
  }

  /** For a replay's mismatch errors: whether its tool calls are answered from the recording. */
  #replayOf(): ReplayOf {
    return this.#replayOnly ? { tools: this.#replayTools ? 'replayed' : 'run' } : {};
  }

  /** The hash of the request as the journal keeps it: redacted, when redaction changes it. */
  #redactedHash(request: unknown, requestHash: string): string {
    const redactor = this.#options.redactor;
    return !redactor || redactor.empty ? requestHash : hashModelRequest(redactor.value(request));
  }

  /** Stores `record` after every record written before it; the promise settles once it is stored (or the write failed and stopped the run). */
  #write(record: JournalRecord): Promise<void> {
    const { store, runId, redactor } = this.#options;
    if (!store) return Promise.resolve();
    const write = this.#queue.then(() =>
      store.append(runId, redactor ? redactor.value(record) : record).catch((error: unknown) => {
        this.#stop(writeFailed(store, runId, error));
      }),
    );
    this.#queue = write;
    return write;
  }

  #stop(error: unknown): unknown {
    if (this.failure === undefined) {
      this.failure = error;
      this.#options.stop(error);
    }
    return error;
  }
}

/** A new run's thread: held for it, its order one more than the thread's last run's. */
async function startThread(
  options: RunJournalOptions,
  store: JournalStore | undefined,
  held: { thread?: RunLease },
): Promise<DurableThread> {
  const threadId = options.thread!;
  if (!store)
    throw new WorkflowError(
      'thread-unsupported',
      `june: thread ${threadId} lives in a journal store: pass journal: fileJournalStore() (or the store that keeps the thread) with thread.`,
    );
  checkThreadId(threadId);
  held.thread = options.threadLease ?? (await takeThread(options, store, threadId));
  const runs = await listThread(store, threadId);
  const order = Math.max(0, ...runs.map((run) => run.order)) + 1;
  const agent = options.threadAgent !== undefined ? { agent: options.threadAgent } : {};
  return holdThread(options, store, { id: threadId, order, ...agent }, held);
}

/**
 * The history a replay of a thread run (or a fork of one, `threadFrom`) starts from: the
 * conversation the thread's runs before it left, read from the store (a replay and a fork
 * hold no thread); none without a store that has the thread's earlier runs.
 */
async function replayedThread(
  store: JournalStore | undefined,
  recorded: JournalThread | undefined,
): Promise<DurableThread | undefined> {
  if (!recorded || !store) return undefined;
  const history = await threadConversation(store, recorded.id, recorded.order);
  return {
    id: recorded.id,
    order: recorded.order,
    ...(recorded.agent !== undefined ? { agent: recorded.agent } : {}),
    messages: history.messages,
  };
}

/** Holds the thread `threadId` for this run (waiting with `waitForOwner`). */
async function takeThread(
  options: RunJournalOptions,
  store: JournalStore,
  threadId: string,
): Promise<RunLease> {
  if (typeof store.threadLease !== 'function')
    throw new WorkflowError(
      'thread-unsupported',
      `june: the journal store cannot hold thread ${threadId} for one run at a time (it has no threadLease); use fileJournalStore() or memoryJournalStore().`,
    );
  return store.threadLease(threadId, options.runId, {
    wait: options.waitForOwner === true,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/**
 * The thread a run continues: held for it (a resume takes the lease now; a new run took it
 * already), with the conversation the thread's runs before it left.
 */
async function holdThread(
  options: RunJournalOptions,
  store: JournalStore,
  thread: JournalThread,
  held: { thread?: RunLease },
): Promise<DurableThread> {
  held.thread ??= await takeThread(options, store, thread.id);
  const history = await threadConversation(store, thread.id, thread.order);
  return {
    id: thread.id,
    order: thread.order,
    ...(thread.agent !== undefined ? { agent: thread.agent } : {}),
    messages: history.messages,
  };
}

/** The header of a new run's journal (its props redacted as the run says). */
function header(options: RunJournalOptions, thread?: DurableThread): JournalHeader {
  const first: JournalHeader = {
    type: 'journal',
    version: JOURNAL_VERSION,
    runId: options.runId,
    workflow: options.workflow,
    ...(options.props !== undefined
      ? { props: plainJson(options.props) as Record<string, unknown> }
      : {}),
    startedAt: now(),
    ...(thread
      ? {
          thread: {
            id: thread.id,
            order: thread.order,
            ...(thread.agent !== undefined ? { agent: thread.agent } : {}),
          },
        }
      : {}),
  };
  const traceparent = options.traceContext?.current();
  if (traceparent !== undefined) first.traceparent = traceparent;
  return options.redactor ? options.redactor.value(first) : first;
}

/**
 * Makes this run the owner of its run id in the store (its given lease, or one taken now)
 * before anything of its journal is read or written; none without a store that leases.
 *
 * @throws {SystemError} `run-owned` when another owner holds it (unless `waitForOwner`).
 * @throws {WorkflowError} `run-resume-invalid` for a given lease of another run.
 */
async function ownRun(options: RunJournalOptions): Promise<RunLease | undefined> {
  const { store, runId, lease } = options;
  if (lease) {
    if (lease.runId === runId) return lease;
    throw new WorkflowError(
      'run-resume-invalid',
      `june: the lease given is of run ${lease.runId}, not of run ${runId}; take it with store.lease("${runId}").`,
    );
  }
  if (!store || typeof store.lease !== 'function') return undefined;
  return store.lease(runId, {
    wait: options.waitForOwner === true,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** The trace contexts a journal's header and resume records keep, in order. */
function recordedTraceparents(records: readonly JournalRecord[]): string[] {
  return records.flatMap((record) =>
    (record.type === 'journal' || record.type === 'resume') && record.traceparent !== undefined
      ? [record.traceparent]
      : [],
  );
}

/** Creates the journal of a new run through the store's atomic `create`. */
async function create(store: JournalStore, runId: string, first: JournalHeader): Promise<void> {
  if (typeof store.create !== 'function') {
    throw new WorkflowError(
      'journal-store-invalid',
      "june: the journal store has no create(runId, header) method; a store creates a run's journal atomically (see JournalStore), so two runs can never share one.",
    );
  }
  try {
    await store.create(runId, first);
  } catch (error) {
    if (error instanceof Error && (error as { code?: unknown }).code === 'journal-exists')
      throw error;
    throw writeFailed(store, runId, error);
  }
}

function writeFailed(store: JournalStore, runId: string, error: unknown): SystemError {
  return new SystemError(
    'journal-write-failed',
    `june: cannot write ${journalLabel(store, runId)}: ${errorMessage(error)}. The run stopped; free the disk or fix the store, then resume it.`,
    { cause: error },
  );
}

/** An answer's edited `input` and its answer instead of the tool (`output`), those it has. */
function edits(answer: { input?: unknown; output?: unknown }): {
  input?: unknown;
  output?: unknown;
} {
  return {
    ...(answer.input !== undefined ? { input: answer.input } : {}),
    ...(answer.output !== undefined ? { output: answer.output } : {}),
  };
}

function where(place: JournalPlace): JournalPlace {
  return place.calls?.length ? { step: place.step, calls: [...place.calls] } : { step: place.step };
}

/** The run (outermost, or a composite call's child run) a place is in: its composite calls. */
function frameOf(place: DurablePlace): string {
  return (place.calls ?? []).join('/');
}

function now(): string {
  return new Date().toISOString();
}

/**
 * A replay that runs its tools for real needs a recording of a run that ended (succeeded or
 * failed): one that stopped waiting, was aborted or is still going runs out of model answers
 * partway, after its tools ran (Studio's Re-run of an aborted run once deployed for real and
 * then failed with `journal-mismatch`). Checked before anything runs.
 * @throws {WorkflowError} `replay-incomplete`
 */
function refuseUnfinished(records: readonly JournalRecord[], label: string): void {
  const finish = records.findLast((record) => record.type === 'run-finish');
  if (finish?.status === 'succeeded' || finish?.status === 'failed') return;
  const how =
    finish === undefined
      ? 'its run has not ended (it waits for an answer, runs, or its process stopped)'
      : 'its run ended aborted';
  throw new WorkflowError(
    'replay-incomplete',
    `june: ${label} is not complete: ${how}, so it would run out of model answers partway, after its tools ran for real. Resume that run instead (resume, june run --resume), or replay it with its tools answered from the recording (replayTools: true, june run --replay-tools), which runs no tool.`,
  );
}
