import { WorkflowError } from '../errors/index.js';
import { answerProblem } from '../approvals/answer-problem.js';
import { answerSchemaSummary } from '../approvals/answer-schema-summary.js';
import { textAnswer } from '../models/answer-forms.js';
import { REDACTED } from '../redaction/redactor.js';
import { stableJson } from '../json/stable-json.js';
import {
  JOURNAL_VERSION,
  type ApprovalAnswerRecord,
  type ApprovalRequestRecord,
  type ForkChangeRecord,
  type ForkedFrom,
  type JournalHeader,
  type JournalRecord,
  type ModelCallRecord,
  type ToolCallRecord,
} from './journal-record.js';

export type { ForkChangeRecord, ForkedFrom } from './journal-record.js';

/** The records a fork may start at: model calls, tool executions and approval answers. */
export type ForkableRecord =
  ModelCallRecord | ToolCallRecord | ApprovalRequestRecord | ApprovalAnswerRecord;

/**
 * One record of a run that a fork may start at, as people find it:
 * - `name`: the record's name, stable across runs of the same workflow with the same
 *   answers: `model <calls/>step #<index>`, `tool <tool> <calls/>call`,
 *   `approval <tool> <calls/>call` (the composite tool calls on the way, outermost first, then the
 *   step path and model call index, or the tool call's id: `<step id>#<model call>.<position>`),
 *   e.g. `tool fetch plan#0.0/summarize#0.0/answer#0.0`;
 * - `n`: its 1-based number among the run's fork points (`--at 3` names the third);
 * - `what`: the record in a few words (the tool and its result, as the model read it: a
 *   composite call's output without its child run; the answer, the model's text).
 */
export interface ForkPoint {
  name: string;
  n: number;
  type: 'model-call' | 'tool-call' | 'approval';
  step: string;
  calls?: string[];
  what: string;
  record: ForkableRecord;
}

/**
 * The fork points of a run's journal, in the order they were recorded: each model call, tool
 * execution and approval (its answer, or, for a run stopped at an approval, its request).
 * A resumed run's records count once (the first record of a place stands, as on resume).
 *
 * @example
 * ```ts
 * const points = forkPoints(await store.read(runId));
 * points.map((point) => point.name); // ['model release #0', 'tool release#0.0', ...]
 * ```
 */
export function forkPoints(records: readonly JournalRecord[]): ForkPoint[] {
  const points: ForkPoint[] = [];
  const seen = new Set<string>();
  // an answer record names no tool: its request does
  const tools = new Map<string, string>();
  for (const record of records)
    if (record.type === 'approval-request') tools.set(callKey(record), record.tool);
  const name = (record: JournalRecord) => pointName(record, tools);
  const answered = new Set(
    records.flatMap((record) => (record.type === 'approval-answer' ? [name(record)] : [])),
  );
  for (const record of records) {
    const named = name(record);
    if (named === undefined || seen.has(named)) continue;
    // a request that was answered is forked at its answer
    if (record.type === 'approval-request' && answered.has(named)) continue;
    seen.add(named);
    const forkable = record as ForkableRecord;
    points.push({
      name: named,
      n: points.length + 1,
      type:
        record.type === 'model-call'
          ? 'model-call'
          : record.type === 'tool-call'
            ? 'tool-call'
            : 'approval',
      step: forkable.step,
      ...(forkable.calls?.length ? { calls: [...forkable.calls] } : {}),
      what: describeRecord(forkable),
      record: forkable,
    });
  }
  return points;
}

/**
 * Finds the fork point `at` names in `points`: its name, or its number (`3`, `'3'`).
 * @throws {WorkflowError} `fork-record-unknown`, listing a few names the run has.
 */
export function findForkPoint(points: readonly ForkPoint[], at: string | number): ForkPoint {
  const text = String(at).trim();
  const found = /^\d+$/.test(text)
    ? points[Number(text) - 1]
    : points.find((point) => point.name === text);
  if (found) return found;
  const some = points
    .slice(0, 8)
    .map((point) => `${point.n}. ${point.name}`)
    .join('; ');
  throw new WorkflowError(
    'fork-record-unknown',
    `june: the run has no record "${text}" to fork at; its records are ${points.length ? `${some}${points.length > 8 ? ` and ${points.length - 8} more` : ''}` : 'none (it made no model call)'}. Name one by its name or number (june fork <run> lists them).`,
  );
}

/** What {@link forkJournal} makes a fork's journal from. */
export interface ForkJournalOptions {
  /** The new run's id. */
  runId: string;
  /** The record to fork at: its name or number (see {@link forkPoints}). */
  at: string | number;
  /** The one change at that record. */
  change: ForkChangeRecord;
}

/**
 * The journal of a fork of a recorded run: a new header (the new run's id, the recorded
 * run's workflow and props, `forkedFrom`; for a thread's run, `threadFrom` instead of
 * `thread`: the fork is no run of the thread, its conversation starts where the recorded
 * run's did), then the recorded records before the fork point
 * as they were, then the fork point with its change:
 * - a tool execution (`result`): its record with the new output (the tool does not run); a
 *   composite call's record keeps its child run, with the new value as the output its
 *   caller's model reads;
 * - an approval (`answer`): its request and the new answer (a denial, an approval);
 * - a `<Question>` (`output`): its request and the new answer;
 * - a tool's approval (`output`): its request and an answer instead of the tool (the tool
 *   does not run; the model reads the value as its result);
 * - a model call (`output`): its record with a text answer (an object as JSON);
 * - a model call (`model`): nothing: the call and everything after it is made again, by
 *   the model the run is given (see `forkRun`).
 *
 * Nothing recorded after the fork point is kept (resume and run-finish records neither): a
 * run of the fork replays the prefix and runs the rest live, the tool calls of the fork
 * point's own turn recorded after it included.
 *
 * @throws {WorkflowError} `fork-record-unknown` (see {@link findForkPoint}),
 *   `fork-change-invalid` for a change that does not fit the record (a result for a model
 *   call), `journal-missing` for records without a header.
 * @example
 * ```ts
 * const records = forkJournal(await store.read('r1'), { runId: 'r2', at: 'tool release#0.0', change: { kind: 'result', result: { ok: false } } });
 * ```
 */
export function forkJournal(
  records: readonly JournalRecord[],
  options: ForkJournalOptions,
): JournalRecord[] {
  const header = records[0];
  if (header?.type !== 'journal')
    throw new WorkflowError(
      'journal-missing',
      'june: a fork starts from a recorded journal, header first; these records have none.',
    );
  const point = findForkPoint(forkPoints(records), options.at);
  const position = records.indexOf(point.record);
  const prefix = records
    .slice(1, position)
    .filter((record) => record.type !== 'resume' && record.type !== 'run-finish');
  const forkedFrom: ForkedFrom = {
    runId: header.runId,
    record: point.name,
    change: options.change,
    ...(header.forkedFrom ? { forkedFrom: header.forkedFrom } : {}),
  };
  // a fork of a thread's run is no run of the thread: it starts from the same conversation
  const { traceparent: _t, thread, threadFrom, ...kept } = header;
  const from = thread ?? threadFrom;
  const first: JournalHeader = {
    ...kept,
    version: JOURNAL_VERSION,
    runId: options.runId,
    startedAt: new Date().toISOString(),
    forkedFrom,
    ...(from ? { threadFrom: from } : {}),
  };
  checkQuestionAnswer(records, point, options.change);
  return [first, ...prefix, ...changed(point, options.change)];
}

/**
 * An answer given instead at a `<Question>` (`output`) checked against the question's answer
 * schema, as its request recorded it (JSON Schema), as `june approve --answer` checks one.
 * @throws {WorkflowError} `fork-change-invalid` naming the question and what does not fit
 */
function checkQuestionAnswer(
  records: readonly JournalRecord[],
  point: ForkPoint,
  change: ForkChangeRecord,
): void {
  if (change.kind !== 'output' || point.type !== 'approval') return;
  const key = callKey(point.record as ApprovalRequestRecord | ApprovalAnswerRecord);
  const request = records.find(
    (record): record is ApprovalRequestRecord =>
      record.type === 'approval-request' && callKey(record) === key,
  );
  const problem = answerProblem(request?.question?.answerSchema, change.output);
  if (problem === undefined) return;
  throw new WorkflowError(
    'fork-change-invalid',
    `june: the answer given at "${point.name}" does not fit the question's answer schema: ${problem}. Give an answer the schema accepts (${answerSchemaSummary(request!.question!.answerSchema)}), or deny it (june fork --answer deny).`,
  );
}

/** The fork point's records with the change made. */
function changed(point: ForkPoint, change: ForkChangeRecord): JournalRecord[] {
  const record = point.record;
  const at = new Date().toISOString();
  switch (record.type) {
    case 'model-call':
      if (change.kind === 'model') return [];
      if (change.kind === 'output') {
        const text =
          typeof change.output === 'string' ? change.output : JSON.stringify(change.output);
        return [
          {
            ...record,
            answer: {
              ...textAnswer(text),
              ...(record.answer.price ? { price: record.answer.price } : {}),
            },
            at,
          },
        ];
      }
      break;
    case 'tool-call':
      if (change.kind === 'result') return [withResult(record, change.result, at)];
      break;
    case 'approval-request':
    case 'approval-answer': {
      const request = record.type === 'approval-request' ? record : undefined;
      const base = {
        type: 'approval-answer' as const,
        step: record.step,
        ...(record.calls?.length ? { calls: [...record.calls] } : {}),
        call: record.call,
        toolCallId: record.toolCallId,
        automatic: false,
        source: 'fork',
        answeredAt: at,
        at,
      };
      if (change.kind === 'answer')
        return [
          ...(request ? [request] : []),
          {
            ...base,
            approved: change.approved,
            ...(change.reason !== undefined ? { reason: change.reason } : {}),
          },
        ];
      if (change.kind === 'output')
        return [...(request ? [request] : []), { ...base, approved: false, output: change.output }];
      break;
    }
  }
  throw new WorkflowError(
    'fork-change-invalid',
    `june: ${changeWords(change)} does not fit the record "${point.name}" (${kindWords(point)}); ${fitting(point)}.`,
  );
}

/**
 * Whether `change` is what the record at `point` holds already (`--answer approve` at a call
 * that was approved, the same result, the same answer or text), so a fork with it changes
 * nothing there: it replays up to the record and runs the rest live as the run did from it.
 * Another model or other settings always count as a change.
 */
export function sameAsRecorded(point: ForkPoint, change: ForkChangeRecord): boolean {
  const record = point.record;
  const same = (a: unknown, b: unknown) => stableJson(a) === stableJson(b);
  switch (change.kind) {
    case 'result':
      return (
        record.type === 'tool-call' &&
        record.error === undefined &&
        same(modelRead(record.output), change.result)
      );
    case 'answer':
      return (
        record.type === 'approval-answer' &&
        record.output === undefined &&
        record.approved === change.approved &&
        record.reason === change.reason
      );
    case 'output':
      if (record.type === 'approval-answer')
        return record.output !== undefined && same(record.output, change.output);
      return (
        record.type === 'model-call' &&
        recordedText(record) ===
          (typeof change.output === 'string' ? change.output : JSON.stringify(change.output))
      );
    case 'model':
      return false;
  }
}

/** A model call's answer as its text, when it was text alone (no tool call, no failure). */
function recordedText(record: ModelCallRecord): string | undefined {
  const { answer } = record;
  if (answer.error) return undefined;
  const items = (answer.result?.content ?? answer.parts ?? []) as readonly {
    type: string;
    text?: string;
    delta?: string;
  }[];
  if (items.some((item) => item.type === 'tool-call')) return undefined;
  return items
    .map((item) =>
      item.type === 'text'
        ? (item.text ?? '')
        : item.type === 'text-delta'
          ? (item.delta ?? '')
          : '',
    )
    .join('');
}

/**
 * A tool execution's record with another result (no error). A composite call's record (its
 * output `{ output, trace, usage }`) keeps its child run: the result is the `output` its
 * caller's model reads, as a plain tool's result is.
 */
function withResult(record: ToolCallRecord, result: unknown, at: string): ToolCallRecord {
  const { error: _error, ...rest } = record;
  const output = isComposite(record.output) ? { ...record.output, output: result } : result;
  return { ...rest, output, at };
}

/** A composite tool call's recorded output (`{ output, trace: { root }, usage }`), as the trace's readers know it. */
function isComposite(output: unknown): output is { output?: unknown; trace: object } {
  const trace = (output as { trace?: { root?: unknown } } | null | undefined)?.trace;
  return (
    typeof trace === 'object' &&
    trace !== null &&
    typeof trace.root === 'object' &&
    trace.root !== null
  );
}

/** What the calling model read of a tool's recorded output: a composite call's `output`. */
function modelRead(output: unknown): unknown {
  return isComposite(output) ? output.output : output;
}

function changeWords(change: ForkChangeRecord): string {
  switch (change.kind) {
    case 'result':
      return 'a new tool result';
    case 'answer':
      return 'a new approval answer';
    case 'output':
      return 'a new answer';
    case 'model':
      return 'another model';
  }
}

function kindWords(point: ForkPoint): string {
  if (point.type === 'model-call') return 'a model call';
  if (point.type === 'tool-call') return 'a tool execution';
  return 'an approval';
}

function fitting(point: ForkPoint): string {
  if (point.type === 'model-call')
    return 'a model call takes another answer (output; june fork --output <json>) or another model (model; june fork --model <id>)';
  if (point.type === 'tool-call')
    return 'a tool execution takes another result (result; june fork --result <json>)';
  return (point.record as ApprovalRequestRecord).question !== undefined ||
    (point.record as ApprovalAnswerRecord).output !== undefined
    ? 'a question takes another answer (output; june fork --output <json>) or a denial (answer; june fork --answer deny)'
    : 'an approval takes another answer (answer; june fork --answer approve|deny) or a result given instead of the tool (output; june fork --output <json>)';
}

/** The name of a record a fork may start at, or `undefined` for a header, resume or finish. */
function pointName(record: JournalRecord, tools: ReadonlyMap<string, string>): string | undefined {
  switch (record.type) {
    case 'model-call':
      return `model ${frame(record.calls)}${record.step} #${record.index}`;
    case 'tool-call':
      return `tool ${record.tool} ${frame(record.calls)}${record.call}`;
    case 'approval-request':
    case 'approval-answer':
      return `approval ${tools.get(callKey(record)) ?? 'tool'} ${frame(record.calls)}${record.call}`;
    default:
      return undefined;
  }
}

function callKey(record: ApprovalRequestRecord | ApprovalAnswerRecord): string {
  return `${frame(record.calls)}${record.step}|${record.call}`;
}

function frame(calls: readonly string[] | undefined): string {
  return calls?.length ? `${calls.join('/')}/` : '';
}

/** A record in a few words, for lists. */
function describeRecord(record: ForkableRecord): string {
  switch (record.type) {
    case 'model-call':
      return record.answer.error
        ? `failed: ${record.answer.error.message}`
        : `answered (${record.mode})`;
    case 'tool-call':
      return `${record.tool} ${short(record.input)} → ${record.error ? `error: ${record.error.message}` : short(modelRead(record.output))}`;
    case 'approval-request':
      return `${record.tool} ${short(record.input)}: waiting for an answer`;
    case 'approval-answer':
      return record.output !== undefined
        ? `answered ${short(record.output)}`
        : record.approved
          ? 'approved'
          : `denied${record.reason ? `: ${record.reason}` : ''}`;
  }
}

function short(value: unknown): string {
  const text = value === undefined ? 'nothing' : stableJson(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * The places in `value` that hold a redacted value (`[redacted]`), as paths (`token`,
 * `auth.key`), for saying which ones a fork needs given again.
 */
export function redactedPaths(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return value.includes(REDACTED) ? [path || '(the value)'] : [];
  if (Array.isArray(value))
    return value.flatMap((item, index) => redactedPaths(item, `${path}[${index}]`));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, item]) =>
      redactedPaths(item, path ? `${path}.${key}` : key),
    );
  return [];
}
