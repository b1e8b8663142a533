import type { LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from '@ai-sdk/provider';

/** The journal schema version this June writes and reads. */
export const JOURNAL_VERSION = 1;

/**
 * Where a call happened in the run's tree:
 * - `step`: the step path (`research:findings` inside the composite tool `research`);
 * - `calls`: the ids of the composite tool calls that lead there, outermost first (absent in
 *   the outermost run). Two parallel calls of one composite tool share a step path; their
 *   call ids tell them apart.
 *
 * @example
 * ```ts
 * const place: JournalPlace = { step: 'research:findings', calls: ['call_1'] };
 * ```
 */
export interface JournalPlace {
  step: string;
  calls?: string[];
}

/** An error as a journal keeps it: plain data, thrown again on replay. */
export interface RecordedError {
  name: string;
  message: string;
  code?: string;
  blame?: 'workflow' | 'model' | 'system';
}

/** The first record of every journal: what ran, with which props, under which schema version. */
export interface JournalHeader {
  type: 'journal';
  version: typeof JOURNAL_VERSION;
  runId: string;
  /** The workflow's name (a file path for `june run`, else the root component's name). */
  workflow?: string;
  /** The root component's props, as JSON. */
  props?: Record<string, unknown>;
  /** ISO 8601. */
  startedAt: string;
}

/**
 * A model call that finished. `index` is its 0-based place among the finished calls of its
 * step path (and composite calls); `requestHash` is the SHA-256 of `request` (the call's
 * options without `abortSignal` and `headers`, keys sorted). A streamed call keeps its stream
 * `parts`; a generate call its `result`.
 */
export interface ModelCallRecord extends JournalPlace {
  type: 'model-call';
  index: number;
  mode: 'stream' | 'generate';
  requestHash: string;
  request: unknown;
  parts?: LanguageModelV3StreamPart[];
  result?: LanguageModelV3GenerateResult;
  at: string;
}

/** A tool execution that finished: its output, or the error it threw (`error` set). */
export interface ToolCallRecord extends JournalPlace {
  type: 'tool-call';
  toolCallId: string;
  tool: string;
  input: unknown;
  output?: unknown;
  error?: RecordedError;
  at: string;
}

/** A tool call that asked for approval. */
export interface ApprovalRequestRecord extends JournalPlace {
  type: 'approval-request';
  toolCallId: string;
  tool: string;
  input: unknown;
  at: string;
}

/** The answer to an approval request; `automatic` when a policy (`--approve`) gave it. */
export interface ApprovalAnswerRecord extends JournalPlace {
  type: 'approval-answer';
  toolCallId: string;
  approved: boolean;
  reason?: string;
  automatic: boolean;
  at: string;
}

/** A process took the run up again (`--resume`); later records are that process's. */
export interface ResumeRecord {
  type: 'resume';
  at: string;
}

/** The run ended (in this process): how, and with which error. */
export interface RunFinishRecord {
  type: 'run-finish';
  status: 'succeeded' | 'failed' | 'aborted';
  error?: RecordedError;
  at: string;
}

/**
 * One line of a journal (JSON Lines, version {@link JOURNAL_VERSION}). The first record is
 * always a {@link JournalHeader}; the others follow in the order they happened.
 *
 * @example
 * ```ts
 * const records: JournalRecord[] = [
 *   { type: 'journal', version: 1, runId: 'r1', workflow: 'release.tsx', startedAt: new Date().toISOString() },
 *   { type: 'approval-request', step: 'release', toolCallId: 'call_1', tool: 'deploy', input: { env: 'prod' }, at: new Date().toISOString() },
 * ];
 * ```
 */
export type JournalRecord =
  | JournalHeader
  | ModelCallRecord
  | ToolCallRecord
  | ApprovalRequestRecord
  | ApprovalAnswerRecord
  | ResumeRecord
  | RunFinishRecord;

/** The `type` of every journal record. */
export const journalRecordTypes: ReadonlyArray<JournalRecord['type']> = ['journal', 'model-call', 'tool-call', 'approval-request', 'approval-answer', 'resume', 'run-finish'];

/**
 * The key of a place: the composite call ids and the step path.
 *
 * @example
 * ```ts
 * placeKey({ step: 'research:findings', calls: ['call_1'] }); // 'call_1|research:findings'
 * ```
 */
export function placeKey(place: JournalPlace): string {
  return `${(place.calls ?? []).join('/')}|${place.step}`;
}

/**
 * The key of one tool call at a place.
 *
 * @example
 * ```ts
 * toolKey({ step: 'release' }, 'call_1'); // '|release|call_1'
 * ```
 */
export function toolKey(place: JournalPlace, toolCallId: string): string {
  return `${placeKey(place)}|${toolCallId}`;
}

/**
 * A place in words, for messages: `step "research:findings" (inside the tool call call_1)`.
 *
 * @example
 * ```ts
 * describePlace({ step: 'release' }); // 'step "release"'
 * ```
 */
export function describePlace(place: JournalPlace): string {
  const inside = place.calls?.length ? ` (inside the tool call ${place.calls.join(' > ')})` : '';
  return `step "${place.step}"${inside}`;
}
