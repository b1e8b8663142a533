import { placeKey } from '../engine/durable-place.js';
import type { AskedQuestion, BudgetAsk, GuardEscalation } from '../approvals/approval-request.js';
import type { ErrorData } from '../errors/error-data.js';
import type { ModelAnswer } from '../models/model-answer.js';
import type { ModelCallSettings } from '../models/settings-from.js';

export { placeKey, callIdOf, describePlace } from '../engine/durable-place.js';

/**
 * The journal schema version this June writes. It reads this one and every older one
 * ({@link JOURNAL_VERSIONS}); older records are upgraded as they are read.
 *
 * - 1: tool calls, approvals and composite calls keyed by the provider's `toolCallId`.
 * - 2: keyed by place and ordinal: each tool call has a `call` id (see {@link JournalPlace}).
 * - 3: a model call may keep only the messages its request added to an earlier call's
 *   (`promptBase`), so a record's size does not grow with the conversation. A version 2
 *   record is a version 3 record without `promptBase`.
 * - 4: a model call keeps its answer as June's own record, `answer` (a `ModelAnswer`: its
 *   format version, its provider specification, its `parts` or `result`). Versions 1 to 3
 *   kept the AI SDK 6 (provider specification v3) `parts` or `result` on the record itself;
 *   they are read as an `answer` of spec `v3`.
 * - 5: an approval answer may carry `input` (approved with an edited input) or `output`
 *   (answered instead of the tool). A version 4 journal is a version 5 journal without
 *   them; a June that reads only up to 4 refuses a version 5 journal rather than replay an
 *   edited call with the model's input.
 * - 6: a model call that failed is a model-call record of its own, its `answer` holding the
 *   error (`answer.error`, see `ModelCallFailure`), and `index` counts failed calls too: a
 *   `<Catch>` retry after a failed call is the next index. A version 5 journal is a version 6
 *   journal without failed calls (its indexes count the same); a June that reads only up to
 *   5 refuses a version 6 journal rather than replay a retry's answer as the failed call's.
 */
export const JOURNAL_VERSION = 6;

/** The journal schema versions this June reads. */
export const JOURNAL_VERSIONS: readonly number[] = [1, 2, 3, 4, 5, 6];

/**
 * Where a call happened in the run's tree:
 * - `step`: the step path (`research:findings` inside the composite tool `research`);
 * - `calls`: the call ids (see {@link callIdOf}) of the composite tool calls that lead
 *   there, outermost first (absent in the outermost run). Two calls of one composite tool
 *   share a step path; their call ids tell them apart.
 *
 * A tool call's identity is its place and its call id, never the provider's `toolCallId`
 * (providers may repeat those, e.g. restart them every turn).
 *
 * @example
 * ```ts
 * const place: JournalPlace = { step: 'research:findings', calls: ['plan#0.1'] };
 * ```
 */
export interface JournalPlace {
  step: string;
  calls?: string[];
}

/** An error as a journal keeps it: plain data from `errorData` with its blame, thrown again on replay. */
export type RecordedError = ErrorData;

/**
 * Where a fork came from: the run it was forked from and the record it was forked at (its
 * name, see {@link forkPoints}), what changed there, and, for a fork of a fork, where that
 * run came from in turn (the chain, newest first).
 */
export interface ForkedFrom {
  runId: string;
  record: string;
  change: ForkChangeRecord;
  forkedFrom?: ForkedFrom;
}

/** The one change at a fork point, as the fork's journal keeps it (plain JSON). */
export type ForkChangeRecord =
  | { kind: 'result'; result: unknown }
  | { kind: 'answer'; approved: boolean; reason?: string }
  | { kind: 'output'; output: unknown }
  | {
      kind: 'model';
      /** The model's id from the fork point on; absent when only its settings changed. */
      model?: string;
      /** The call settings from the fork point on (`temperature`, `maxOutputTokens`, ...). */
      settings?: ModelCallSettings;
      allAgents?: true;
    };

/** The first record of every journal: what ran, with which props, under which schema version. */
export interface JournalHeader {
  type: 'journal';
  /** The schema version the journal was started with (a resume may write newer records, see {@link ResumeRecord}). */
  version: number;
  runId: string;
  /** The workflow's name (a file path for `june run`, else the root component's name). */
  workflow?: string;
  /** The root component's props, as JSON. */
  props?: Record<string, unknown>;
  /** ISO 8601. */
  startedAt: string;
  /**
   * The run span's W3C trace context (`00-<trace id>-<span id>-<flags>`) when the run
   * exported OpenTelemetry spans: a resumed run links its span to it.
   */
  traceparent?: string;
  /**
   * A fork's journal (see `forkRun`): the run and record it was forked at, what changed
   * there, and where that run came from in turn. Its records up to the fork point are the
   * recorded run's.
   */
  forkedFrom?: ForkedFrom;
  /**
   * The thread the run belongs to (`run(el, { thread })`): its id, and the run's place in it
   * (1 for a thread's first run, then one more than the thread's last run when it started).
   * Readers that do not know it ignore it.
   */
  thread?: JournalThread;
  /**
   * A fork of a thread's run (see `forkRun`): the thread and the order of the run it was
   * forked from (of the first run of the chain, for a fork of a fork). The fork is no run of
   * that thread (it is an alternative history, not the thread's next run): its conversation
   * starts where the recorded run's did, from what the thread's runs before that order left.
   */
  threadFrom?: JournalThread;
}

/** A run's membership of a thread, in its journal's header: the thread's id and the run's order in it. */
export interface JournalThread {
  id: string;
  order: number;
  /** The `name` of the agent whose conversation the thread continues, when the run named one. */
  agent?: string;
}

/**
 * The conversation a thread run leaves to the thread's next run, on its `run-finish`
 * record: the thread agent's name and its whole conversation when it finished (the history
 * it started from, then its own turns; compacted when the agent compacts), as AI SDK
 * `ModelMessage`s in plain JSON, redacted as the run's records are.
 */
export interface ThreadConversation {
  agent: string;
  messages: unknown[];
}

/**
 * A model call that finished. `index` is its 0-based place among the finished calls of its
 * step path (and composite calls), failed ones included (since version 6); `requestHash` is
 * the SHA-256 of the whole request (the call's options without `abortSignal` and `headers`,
 * keys sorted). `answer` is what the model answered, as June records it
 * ({@link ModelAnswer}): a streamed call's parts or a generate call's result, or, for a call
 * that failed, its error (`answer.error`), thrown again when the call is replayed; and the
 * price the call was made at (`answer.price`, when its model had one), which a replay reports
 * its cost at. Records without it (written before calls were priced) still load.
 *
 * `request` is the whole request, or, with `promptBase`, the request with only the prompt
 * messages it added: its prompt is the first `promptBase.messages` messages of the prompt of
 * the earlier model-call record whose `requestHash` is `promptBase.requestHash`, followed by
 * `request.prompt` (see {@link PromptBase}).
 */
export interface ModelCallRecord extends JournalPlace {
  type: 'model-call';
  index: number;
  mode: 'stream' | 'generate';
  requestHash: string;
  request: unknown;
  promptBase?: PromptBase;
  answer: ModelAnswer;
  at: string;
}

/**
 * Where a model call's prompt starts (schema version 3): the first `messages` messages of
 * the whole prompt of an earlier model-call record of the same journal, the one whose
 * `requestHash` is `requestHash` (any record with that hash holds the same request). A
 * conversation's calls thus store each message once, and a journal grows with the
 * conversation, not with its square.
 */
export interface PromptBase {
  requestHash: string;
  /** How many leading messages of that prompt this one shares, 1 or more. */
  messages: number;
}

/**
 * A tool execution that finished: its output, or the error it threw (`error` set). `call`
 * is the call's id at its place ({@link callIdOf}); `toolCallId` is the provider's id, kept
 * for reading.
 */
export interface ToolCallRecord extends JournalPlace {
  type: 'tool-call';
  call: string;
  toolCallId: string;
  tool: string;
  input: unknown;
  output?: unknown;
  error?: RecordedError;
  at: string;
}

/**
 * A tool call that asked for approval. `question`: the call is a `<Question>`, and this is
 * what it asked (its prompt, the JSON Schema of an answer, its timeout; see
 * `AskedQuestion`); its answer is the `approval-answer`'s `output`, or a denial. A version 5
 * journal without it is a journal of approvals only; readers that do not know it ignore it.
 */
export interface ApprovalRequestRecord extends JournalPlace {
  type: 'approval-request';
  call: string;
  toolCallId: string;
  tool: string;
  input: unknown;
  question?: AskedQuestion;
  /** The `<Guard>` that escalated the call, with its reason (absent for any other request). */
  guard?: GuardEscalation;
  /** The `<Budget>` that asks to allow more, what it spent and its cap (absent for any other request). */
  budget?: BudgetAsk;
  /**
   * The tool's input and output schemas as JSON Schema, when it has them: whoever answers
   * from another process (`june approve`, Studio) checks an edited input or an answer
   * instead of the tool against them before giving it. Absent in journals written before.
   */
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  at: string;
}

/**
 * The answer to an approval request; `automatic` when a policy (`--approve`) gave it.
 * `source`, `answeredBy` and `answeredAt` say through which way, who and when (ISO 8601) it
 * was answered; journals written before them lack them, and read as they are.
 *
 * Since version 5: `input` when the call was approved with an edited input (the call ran
 * with it; the {@link ApprovalRequestRecord} keeps the model's), `output` when a person
 * answered instead of the tool (`approved` is false; the model read it as the result).
 */
export interface ApprovalAnswerRecord extends JournalPlace {
  type: 'approval-answer';
  call: string;
  toolCallId: string;
  approved: boolean;
  reason?: string;
  input?: unknown;
  output?: unknown;
  automatic: boolean;
  source?: string;
  answeredBy?: string;
  answeredAt?: string;
  at: string;
}

/**
 * A process took the run up again (`--resume`); later records are that process's, of schema
 * `version` (absent: the header's version).
 */
export interface ResumeRecord {
  type: 'resume';
  version?: number;
  /** The resumed run span's W3C trace context, as in {@link JournalHeader.traceparent}. */
  traceparent?: string;
  at: string;
}

/** The run ended (in this process): how, and with which error. */
export interface RunFinishRecord {
  type: 'run-finish';
  status: 'succeeded' | 'failed' | 'aborted';
  error?: RecordedError;
  /** A thread run's conversation (see {@link ThreadConversation}), when its thread agent finished. */
  conversation?: ThreadConversation;
  at: string;
}

/**
 * One line of a journal (JSON Lines, version {@link JOURNAL_VERSION}). The first record is
 * always a {@link JournalHeader}; the others follow in causal order (a record is stored
 * before anything it led to happens).
 *
 * @example
 * ```ts
 * const records: JournalRecord[] = [
 *   { type: 'journal', version: 2, runId: 'r1', workflow: 'release.tsx', startedAt: new Date().toISOString() },
 *   { type: 'approval-request', step: 'release', call: 'release#0.0', toolCallId: 'call_1', tool: 'deploy', input: { env: 'prod' }, at: new Date().toISOString() },
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
export const journalRecordTypes: ReadonlyArray<JournalRecord['type']> = [
  'journal',
  'model-call',
  'tool-call',
  'approval-request',
  'approval-answer',
  'resume',
  'run-finish',
];

/**
 * The key of one tool call at a place, by its call id.
 *
 * @example
 * ```ts
 * toolKey({ step: 'release' }, 'release#0.0'); // '|release|release#0.0'
 * ```
 */
export function toolKey(place: JournalPlace, call: string): string {
  return `${placeKey(place)}|${call}`;
}
