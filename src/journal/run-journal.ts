import type {
  LanguageModelV3,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { wrapLanguageModel, type LanguageModel, type LanguageModelUsage, type ToolSet } from 'ai';
import type { ApprovalDecision } from '../approvals/approval-request.js';
import { SystemError, WorkflowError } from '../errors/index.js';
import { plainJson } from '../json/json-form.js';
import { languageModelV3 } from '../models/language-model-v3.js';
import { recordedError, revivedError } from './journal-codec.js';
import { JournalIndex } from './journal-index.js';
import { CallIds, toolCallsOf } from './call-ids.js';
import {
  JOURNAL_VERSION,
  placeKey,
  toolKey,
  type JournalHeader,
  type JournalPlace,
  type JournalRecord,
} from './journal-record.js';
import { journalLabel, type JournalStore } from './journal-store.js';
import {
  journalTools,
  recordedExecution,
  type JournaledToolCall,
  type ToolCallJournal,
} from './journal-tools.js';
import { stableJson } from './model-request.js';
import { loadJournal } from './load-journal.js';
import { readRunJournal } from './read-run-journal.js';
import { recordReplayMiddleware, type ModelCallJournal } from './record-replay-middleware.js';
import { journalCallChanged, journalCallMissing, journalMismatch } from './journal-mismatch.js';
import { hashModelRequest } from './model-request.js';
import type { Redactor } from '../redaction/redactor.js';
import { recordedAnswer } from './recorded-answer.js';

/** Options of {@link RunJournal.open}. */
export interface RunJournalOptions {
  runId: string;
  /** The workflow's name, kept in the header and checked on resume. */
  workflow: string;
  props?: Record<string, unknown>;
  /** Where to write the run's journal (and, with `resume`, where to read it). */
  store?: JournalStore;
  /** Take the run `runId` up again from its journal in `store`. */
  resume?: boolean;
  /** A recording (records, or a journal file's path) that answers every model call. */
  replay?: string | readonly JournalRecord[];
  /** With `replay`: answer tool calls from the recording too. @default false */
  replayTools?: boolean;
  /** Stops the run (once) when the journal cannot go on: a mismatch, a failed write. */
  stop: (reason: unknown) => void;
  /**
   * What to keep out of the records (the run's `redact` option, configured credentials).
   * Model requests are compared by the hash of their redacted form, so a resumed run whose
   * recorded tool outputs were redacted still matches its journal.
   */
  redactor?: Redactor;
}

type Ask = (replayed?: ApprovalDecision) => Promise<ApprovalDecision & { automatic: boolean }>;

/**
 * A run's journal while it runs. It is write-ahead: each record is stored before anything it
 * led to happens (a model call's record before its tool calls reach the AI SDK, an approval
 * request before a person is asked, an answer before the tool runs), and a run's records are
 * stored one after another, in the order they were written (causal order), whatever the store.
 * When resuming or replaying, it answers what already finished from the recorded journal;
 * what the journal recorded decides, whatever today's code or options would decide.
 *
 * - Resume (`resume`): reads the run's journal; a model call recorded at the same place and
 *   index is replayed (its request must hash the same, else `journal-mismatch`), others are
 *   made; recorded tool calls and approval answers are given again (a recorded call of
 *   another tool or input fails with `journal-mismatch` before anything runs). New records
 *   are appended to the same journal, after a `resume` record.
 * - Replay (`replay`): every model call must come from the recording; tool calls run unless
 *   `replayTools`. With a `store`, the new run's journal gets every record, replayed or not.
 *
 * Tool calls are known by place and call id ({@link CallIds}), never by `toolCallId` alone.
 *
 * @example
 * ```ts
 * const journal = await RunJournal.open({ runId, workflow: 'release.tsx', store: fileJournalStore(), stop: (reason) => controller.abort(reason) });
 * const model = journal.model(agentModel, { step: 'release' });
 * await journal.finish('succeeded');
 * ```
 */
export class RunJournal implements ModelCallJournal, ToolCallJournal {
  /** The error that stopped the run, once the journal stopped it. */
  failure: unknown;
  readonly #options: RunJournalOptions;
  readonly #index: JournalIndex | undefined;
  readonly #label: string;
  readonly #replayOnly: boolean;
  readonly #replayTools: boolean;
  readonly #copy: boolean;
  readonly #next = new Map<string, number>();
  readonly #calls = new CallIds();
  /** Tool calls (by key) that needed approval in this process: a call is asked once. */
  readonly #asked = new Set<string>();
  /** The last write: each write starts once the one before it is stored. */
  #queue: Promise<void> = Promise.resolve();
  #finished = false;

  private constructor(options: RunJournalOptions, index: JournalIndex | undefined, label: string) {
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
   * Opens the journal of a run: reads what it resumes or replays, and creates the journal
   * with its header (a new run, atomically: see {@link JournalStore.create}) or writes a
   * `resume` record.
   *
   * @throws {WorkflowError} `run-resume-invalid` (resume without a store), `journal-missing`
   *   (no journal for the run), `journal-exists` (a new run whose id already has one),
   *   `journal-mismatch` (the journal is of another workflow or run), `journal-unreadable`
   *   (a replay file that cannot be read), `run-replay-invalid` (replay records without a header).
   * @throws {SystemError} `journal-corrupt` for a bad record (the store names file and line),
   *   `journal-write-failed` when the store cannot create the journal.
   */
  static async open(options: RunJournalOptions): Promise<RunJournal> {
    const { store, runId } = options;
    if (options.resume) {
      if (!store)
        throw new WorkflowError(
          'run-resume-invalid',
          `june: resuming the run ${runId} needs its journal: pass journal: fileJournalStore() (or the store it was written to) with resume.`,
        );
      const records = await readRunJournal(store, runId, options.workflow);
      const journal = new RunJournal(
        options,
        new JournalIndex(records),
        journalLabel(store, runId),
      );
      await journal.#write({ type: 'resume', version: JOURNAL_VERSION, at: now() });
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
    }
    if (store) await create(store, runId, header(options));
    return new RunJournal(options, index, label);
  }

  /**
   * The model for one step's calls, journaled under `place` (a `wrapLanguageModel` with
   * {@link recordReplayMiddleware}). A model id string is resolved as the AI SDK resolves it;
   * a model of the older `v2` specification is not journaled (its calls are made again on
   * resume), except in a replay, where it is never called.
   */
  model(model: LanguageModel, place: JournalPlace): LanguageModel {
    const v3 = languageModelV3(model);
    if (!v3 && !this.#replayOnly) return model;
    return wrapLanguageModel({
      model: v3 ?? (model as LanguageModelV3),
      middleware: recordReplayMiddleware(this, place),
    });
  }

  /** One step's tools with their executions journaled under `place`; `addUsage` gets a replayed composite call's usage. */
  tools(
    tools: ToolSet,
    place: JournalPlace,
    addUsage: (usage: LanguageModelUsage) => void,
  ): ToolSet {
    return journalTools(tools, place, {
      runId: this.runId,
      decidesApprovals: this.decidesApprovals,
      callId: (at, toolCallId) => this.callId(at, toolCallId),
      needsApproval: (at, call, decide) => this.needsApproval(at, call, decide),
      toolCall: (at, call, execute) => this.toolCall(at, call, execute, addUsage),
    });
  }

  /** @inheritdoc */
  callId(place: JournalPlace, toolCallId: string): string {
    return this.#calls.of(place, toolCallId);
  }

  /** @inheritdoc */
  async needsApproval(
    place: JournalPlace,
    call: JournaledToolCall,
    decide: () => boolean | PromiseLike<boolean>,
  ): Promise<boolean> {
    const key = toolKey(place, call.call);
    if (this.#asked.has(key)) return true;
    const recorded = this.#index?.answer(key) ?? this.#index?.request(key);
    if (recorded) {
      this.#checkCall(place, call, this.#index?.request(key));
      this.#asked.add(key);
      return true;
    }
    if (this.#replayTools && this.#index?.toolCall(key)) return false;
    const needed = (await decide()) === true;
    if (needed) this.#asked.add(key);
    return needed;
  }

  /**
   * Answers one approval request through the journal: a recorded answer is given again
   * (`ask(decision)`: answered at once, marked as replayed); otherwise the request is
   * recorded (stored before `ask()` shows it), asked, and its answer stored before the tool
   * may run.
   */
  async approval(
    place: JournalPlace,
    request: { toolCallId: string; toolName: string; input: unknown },
    ask: Ask,
  ): Promise<ApprovalDecision & { automatic: boolean }> {
    const call = this.callId(place, request.toolCallId);
    const key = toolKey(place, call);
    const requested = {
      type: 'approval-request' as const,
      ...where(place),
      call,
      toolCallId: request.toolCallId,
      tool: request.toolName,
      input: plainJson(request.input),
      at: now(),
    };
    const recordedRequest = this.#index?.request(key);
    this.#checkCall(
      place,
      { call, tool: request.toolName, input: request.input, toolCallId: request.toolCallId },
      recordedRequest,
    );
    const answer = this.#index?.answer(key);
    if (answer) {
      if (this.#copy) {
        await this.#write(requested);
        await this.#write({ ...answer, at: now() });
      }
      return ask(
        answer.reason === undefined
          ? { approved: answer.approved }
          : { approved: answer.approved, reason: answer.reason },
      );
    }
    if (this.#copy || !recordedRequest) await this.#write(requested);
    if (this.failure !== undefined) throw this.failure;
    const decision = await ask();
    await this.#write({
      type: 'approval-answer',
      ...where(place),
      call,
      toolCallId: request.toolCallId,
      approved: decision.approved,
      ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
      automatic: decision.automatic,
      at: now(),
    });
    if (this.failure !== undefined) throw this.failure;
    return decision;
  }

  /** Writes how the run ended and waits for every write. */
  async finish(status: 'succeeded' | 'failed' | 'aborted', error?: unknown): Promise<void> {
    if (this.#finished) return;
    this.#finished = true;
    await this.#write({
      type: 'run-finish',
      status,
      ...(error !== undefined ? { error: recordedError(error) } : {}),
      at: now(),
    });
  }

  /** @inheritdoc */
  async nextModelCall(
    place: JournalPlace,
    mode: 'stream' | 'generate',
    request: unknown,
    requestHash: string,
  ): Promise<{
    index: number;
    parts?: LanguageModelV3StreamPart[];
    result?: LanguageModelV3GenerateResult;
  }> {
    const key = placeKey(place);
    const index = this.#next.get(key) ?? 0;
    const recorded = this.#index?.modelCall(place, index);
    if (recorded) {
      requestHash = this.#redactedHash(request, requestHash);
      if (recorded.requestHash !== requestHash)
        throw this.#stop(
          journalMismatch(
            this.#replayOnly ? 'replay' : 'resume',
            this.#label,
            place,
            index,
            recorded.request,
            request,
          ),
        );
      this.#next.set(key, index + 1);
      this.#calls.register(place, index, toolCallsOf(recorded));
      if (this.#copy) await this.#write({ ...recorded, at: now() });
      // recorded streaming, asked in batch mode (or the other way round): the same answer in the form asked for
      return { index, ...recordedAnswer(mode, recorded.parts, recorded.result) };
    }
    if (this.#replayOnly) throw this.#stop(journalCallMissing(this.#label, place, index));
    return { index };
  }

  /** @inheritdoc */
  async recordModelCall(
    place: JournalPlace,
    call: {
      index: number;
      mode: 'stream' | 'generate';
      request: unknown;
      requestHash: string;
      parts?: LanguageModelV3StreamPart[];
      result?: LanguageModelV3GenerateResult;
    },
  ): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    this.#next.set(placeKey(place), call.index + 1);
    this.#calls.register(place, call.index, toolCallsOf(call));
    await this.#write({
      type: 'model-call',
      ...where(place),
      index: call.index,
      mode: call.mode,
      requestHash: this.#redactedHash(call.request, call.requestHash),
      request: call.request,
      ...(call.parts ? { parts: call.parts } : {}),
      ...(call.result ? { result: call.result } : {}),
      at: now(),
    });
    if (this.failure !== undefined) throw this.failure;
  }

  /** @inheritdoc */
  toolCall(
    place: JournalPlace,
    call: Parameters<ToolCallJournal['toolCall']>[1],
    execute: () => unknown,
    addUsage?: (usage: LanguageModelUsage) => void,
  ): unknown {
    const key = toolKey(place, call.call);
    try {
      this.#checkCall(place, call, this.#index?.toolCall(key) ?? this.#index?.request(key));
      const answer = this.#index?.answer(key);
      if (answer && !answer.approved)
        throw this.#stop(
          journalCallChanged(
            this.#label,
            place,
            call,
            'its approval was denied, yet the tool was about to run',
          ),
        );
    } catch (error) {
      return Promise.reject(error);
    }
    const recorded = this.#replayTools ? this.#index?.toolCall(key) : undefined;
    if (recorded) {
      return (async () => {
        if (this.#copy) await this.#write({ ...recorded, at: now() });
        const usage = (recorded.output as { usage?: LanguageModelUsage } | undefined)?.usage;
        if (call.composite && usage && typeof usage === 'object') addUsage?.(usage);
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
          : { error: recordedError(outcome.error) }),
        at: now(),
      });
    };
    return recordedExecution(execute, record);
  }

  /** A recorded call at this place and call id must be of the same tool with the same input; else `journal-mismatch` (thrown, and the run stops). */
  #checkCall(
    place: JournalPlace,
    call: JournaledToolCall,
    recorded: { tool: string; input: unknown } | undefined,
  ): void {
    if (!recorded) return;
    if (recorded.tool !== call.tool)
      throw this.#stop(
        journalCallChanged(
          this.#label,
          place,
          call,
          `it was a call of "${recorded.tool}" when the run was recorded, now of "${call.tool}"`,
        ),
      );
    // the journal keeps inputs redacted: compare like with like
    const input = this.#options.redactor
      ? this.#options.redactor.value(plainJson(call.input))
      : plainJson(call.input);
    if (recorded.input !== undefined && stableJson(recorded.input) !== stableJson(input)) {
      throw this.#stop(
        journalCallChanged(
          this.#label,
          place,
          call,
          `its input was ${stableJson(recorded.input)} when the run was recorded, now ${stableJson(input)}`,
        ),
      );
    }
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

/** The header of a new run's journal (its props redacted as the run says). */
function header(options: RunJournalOptions): JournalHeader {
  const first: JournalHeader = {
    type: 'journal',
    version: JOURNAL_VERSION,
    runId: options.runId,
    workflow: options.workflow,
    ...(options.props !== undefined
      ? { props: plainJson(options.props) as Record<string, unknown> }
      : {}),
    startedAt: now(),
  };
  return options.redactor ? options.redactor.value(first) : first;
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
    `june: cannot write ${journalLabel(store, runId)}: ${error instanceof Error ? error.message : String(error)}. The run stopped; free the disk or fix the store, then resume it.`,
    { cause: error },
  );
}

function where(place: JournalPlace): JournalPlace {
  return place.calls?.length ? { step: place.step, calls: [...place.calls] } : { step: place.step };
}

function now(): string {
  return new Date().toISOString();
}
