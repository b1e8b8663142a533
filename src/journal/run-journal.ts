import type { LanguageModelV3, LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel, type LanguageModel, type LanguageModelUsage, type ToolSet } from 'ai';
import type { ApprovalDecision } from '../approvals/approval-request.js';
import { SystemError, WorkflowError } from '../errors/index.js';
import { languageModelV3 } from '../models/language-model-v3.js';
import { recordedError, revivedError } from './journal-codec.js';
import { JournalIndex } from './journal-index.js';
import { JOURNAL_VERSION, placeKey, toolKey, type JournalPlace, type JournalRecord } from './journal-record.js';
import { journalLabel, type JournalStore } from './journal-store.js';
import { journalTools, recordedExecution, type ToolCallJournal } from './journal-tools.js';
import { loadJournal } from './load-journal.js';
import { readRunJournal } from './read-run-journal.js';
import { recordReplayMiddleware, type ModelCallJournal } from './record-replay-middleware.js';
import { journalCallMissing, journalMismatch } from './journal-mismatch.js';

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
}

type Ask = (replayed?: ApprovalDecision) => Promise<ApprovalDecision & { automatic: boolean }>;

/**
 * A run's journal while it runs: writes each finished model call, tool call and approval to
 * the store as it happens (each awaited before the run goes on), and, when resuming or
 * replaying, answers what already finished from the recorded journal.
 *
 * - Resume (`resume`): reads the run's journal; a model call recorded at the same place and
 *   index is replayed (its request must hash the same, else `journal-mismatch`), others are
 *   made; recorded tool calls and approval answers are given again. New records are
 *   appended to the same journal, after a `resume` record.
 * - Replay (`replay`): every model call must come from the recording; tool calls run unless
 *   `replayTools`. With a `store`, the new run's journal gets every record, replayed or not.
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
  readonly #writes = new Set<Promise<void>>();
  #finished = false;

  private constructor(options: RunJournalOptions, index: JournalIndex | undefined, label: string) {
    this.#options = options;
    this.#index = index;
    this.#label = label;
    this.#replayOnly = options.replay !== undefined;
    this.#replayTools = options.replay !== undefined ? options.replayTools === true : true;
    this.#copy = options.replay !== undefined;
  }

  /**
   * Opens the journal of a run: reads what it resumes or replays, and writes the header (a
   * new run) or a `resume` record.
   *
   * @throws {WorkflowError} `run-resume-invalid` (resume without a store), `journal-missing`
   *   (no journal for the run), `journal-exists` (a new run whose id already has one),
   *   `journal-mismatch` (the journal is of another workflow or run), `journal-unreadable`
   *   (a replay file that cannot be read), `run-replay-invalid` (replay records without a header).
   * @throws {SystemError} `journal-corrupt` for a bad record (the store names file and line).
   */
  static async open(options: RunJournalOptions): Promise<RunJournal> {
    const { store, runId } = options;
    if (options.resume) {
      if (!store) throw new WorkflowError('run-resume-invalid', `june: resuming the run ${runId} needs its journal: pass journal: fileJournalStore() (or the store it was written to) with resume.`);
      const records = await readRunJournal(store, runId, options.workflow);
      const index = new JournalIndex(records);
      const label = journalLabel(store, runId);
      const journal = new RunJournal(options, index, label);
      await journal.#write({ type: 'resume', at: now() });
      return journal;
    }
    let index: JournalIndex | undefined;
    let label = '';
    if (options.replay !== undefined) {
      const records = typeof options.replay === 'string' ? await loadJournal(options.replay) : options.replay;
      if (records[0]?.type !== 'journal') {
        throw new WorkflowError('run-replay-invalid', 'june: replay takes a recorded journal: its records, header first (from loadJournal(path)), or the path of a journal.jsonl file.');
      }
      index = new JournalIndex(records);
      label = `the recording ${typeof options.replay === 'string' ? options.replay : `of run ${index.header.runId}`}`;
    }
    if (store && (await store.read(runId)).length > 0) {
      throw new WorkflowError('journal-exists', `june: ${journalLabel(store, runId)} already exists; pass resume: "${runId}" to take that run up again, or leave out runId for a new run.`);
    }
    const journal = new RunJournal(options, index, label);
    await journal.#write({
      type: 'journal',
      version: JOURNAL_VERSION,
      runId,
      workflow: options.workflow,
      ...(options.props !== undefined ? { props: JSON.parse(JSON.stringify(options.props)) as Record<string, unknown> } : {}),
      startedAt: now(),
    });
    return journal;
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
    return wrapLanguageModel({ model: v3 ?? (model as LanguageModelV3), middleware: recordReplayMiddleware(this, place) });
  }

  /** One step's tools with their executions journaled under `place`; `addUsage` gets a replayed composite call's usage. */
  tools(tools: ToolSet, place: JournalPlace, addUsage: (usage: LanguageModelUsage) => void): ToolSet {
    return journalTools(tools, place, { toolCall: (at, call, execute) => this.toolCall(at, call, execute, addUsage) });
  }

  /**
   * Answers one approval request through the journal: a recorded answer is given again
   * (`ask(decision)`: answered at once, marked as replayed); otherwise the request is
   * recorded, asked (`ask()`), and its answer recorded before the tool may run.
   */
  async approval(place: JournalPlace, request: { toolCallId: string; toolName: string; input: unknown }, ask: Ask): Promise<ApprovalDecision & { automatic: boolean }> {
    const key = toolKey(place, request.toolCallId);
    const requested = { type: 'approval-request' as const, ...where(place), toolCallId: request.toolCallId, tool: request.toolName, input: plain(request.input), at: now() };
    const answer = this.#index?.takeAnswer(key);
    if (answer) {
      if (this.#copy) {
        await this.#write(requested);
        await this.#write({ ...answer, at: now() });
      }
      return ask(answer.reason === undefined ? { approved: answer.approved } : { approved: answer.approved, reason: answer.reason });
    }
    if (this.#copy || !this.#index?.hasRequest(key)) await this.#write(requested);
    const decision = await ask();
    await this.#write({
      type: 'approval-answer',
      ...where(place),
      toolCallId: request.toolCallId,
      approved: decision.approved,
      ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
      automatic: decision.automatic,
      at: now(),
    });
    return decision;
  }

  /** Writes how the run ended and waits for every write. */
  async finish(status: 'succeeded' | 'failed' | 'aborted', error?: unknown): Promise<void> {
    if (this.#finished) return;
    this.#finished = true;
    await this.#write({ type: 'run-finish', status, ...(error !== undefined ? { error: recordedError(error) } : {}), at: now() });
    while (this.#writes.size > 0) await Promise.all([...this.#writes]);
  }

  /** @inheritdoc */
  async nextModelCall(place: JournalPlace, mode: 'stream' | 'generate', request: unknown, requestHash: string): Promise<{ index: number; parts?: LanguageModelV3StreamPart[]; result?: LanguageModelV3GenerateResult }> {
    const key = placeKey(place);
    const index = this.#next.get(key) ?? 0;
    const recorded = this.#index?.modelCall(place, index);
    if (recorded) {
      if (recorded.requestHash !== requestHash || recorded.mode !== mode) throw this.#stop(journalMismatch(this.#replayOnly ? 'replay' : 'resume', this.#label, place, index, recorded.request, request));
      this.#next.set(key, index + 1);
      if (this.#copy) await this.#write({ ...recorded, at: now() });
      return recorded.mode === 'stream' ? { index, parts: recorded.parts ?? [] } : { index, result: recorded.result! };
    }
    if (this.#replayOnly) throw this.#stop(journalCallMissing(this.#label, place, index));
    return { index };
  }

  /** @inheritdoc */
  async recordModelCall(
    place: JournalPlace,
    call: { index: number; mode: 'stream' | 'generate'; request: unknown; requestHash: string; parts?: LanguageModelV3StreamPart[]; result?: LanguageModelV3GenerateResult },
  ): Promise<void> {
    if (this.failure !== undefined) return;
    this.#next.set(placeKey(place), call.index + 1);
    await this.#write({ type: 'model-call', ...where(place), index: call.index, mode: call.mode, requestHash: call.requestHash, request: call.request, ...(call.parts ? { parts: call.parts } : {}), ...(call.result ? { result: call.result } : {}), at: now() });
  }

  /** @inheritdoc */
  toolCall(place: JournalPlace, call: Parameters<ToolCallJournal['toolCall']>[1], execute: () => unknown, addUsage?: (usage: LanguageModelUsage) => void): unknown {
    const recorded = this.#replayTools ? this.#index?.takeToolCall(toolKey(place, call.toolCallId)) : undefined;
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
        toolCallId: call.toolCallId,
        tool: call.tool,
        input: plain(call.input),
        ...('output' in outcome ? { output: outcome.output } : { error: recordedError(outcome.error) }),
        at: now(),
      });
    };
    return recordedExecution(execute, record);
  }

  #write(record: JournalRecord): Promise<void> {
    const { store, runId } = this.#options;
    if (!store) return Promise.resolve();
    const write = store.append(runId, record).catch((error: unknown) => {
      this.#stop(new SystemError('journal-write-failed', `june: cannot write ${journalLabel(store, runId)}: ${error instanceof Error ? error.message : String(error)}. The run stopped; free the disk or fix the store, then resume it.`, { cause: error }));
    });
    this.#writes.add(write);
    void write.finally(() => this.#writes.delete(write));
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

function where(place: JournalPlace): JournalPlace {
  return place.calls?.length ? { step: place.step, calls: [...place.calls] } : { step: place.step };
}

function plain(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value));
  } catch {
    return String(value);
  }
}

function now(): string {
  return new Date().toISOString();
}
