import { WorkflowError } from '../errors/index.js';
import { forkJournal, forkPoints, type ForkPoint } from '../journal/fork-journal.js';
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
} from '../journal/journal-record.js';
import type { AskedQuestion } from '../approvals/approval-request.js';
import { liveWords } from './fork-run.js';

// The records of a run over the database are rows of its place table (`june.calls`, see
// src/dbos/call-records.ts), keyed by place: `model <calls>|<step>#<index>`,
// `tool <calls>|<step>|<call id>`, `approval <request id>` and `answer <request id>` (the
// request id being the composite calls and the call id, `fan#0.1/get#0.0`). A fork of such a
// run is made here as a journal's is (`forkJournal`), from those rows read as journal records,
// so both name their records alike.

/** An approval request as a row keeps it (`RowRequest`). */
interface RowRequest {
  tool: string;
  input: unknown;
  step: string;
  question?: AskedQuestion;
}

/** An answer as a row keeps it (`RowAnswer`). */
interface RowAnswer {
  id: string;
  approved: boolean;
  reason?: string;
  input?: unknown;
  output?: unknown;
  answeredBy?: string;
  answeredAt?: string;
  source?: string;
}

/** The place key of the answer to the request `id`. */
const answerKey = (id: string) => `answer ${id}`;

/** One row of a run's place table (`june.calls`): its place key, its record, when it was stored. */
export interface PlacedRow {
  place: string;
  record: unknown;
  /** As PostgreSQL keeps it (microseconds), text: the rows' order. */
  storedAt: string;
  /** Stored this many microseconds after `storedAt` (a fork's answer after its request). */
  after?: number;
}

/**
 * The records the rows `rows` may be forked at, named and numbered as `forkPoints` names a
 * journal's.
 */
export function rowForkPoints(rows: readonly PlacedRow[]): ForkPoint[] {
  return forkPoints(rowsAsRecords(rows).records);
}

/**
 * A run's rows as the records of a journal, in the order they were stored, so a run over the
 * database names its fork points as a journal does (`forkPoints`): each model call, tool
 * execution, approval request and answer taken, with the row it came from.
 */
export function rowsAsRecords(rows: readonly PlacedRow[]): {
  records: JournalRecord[];
  rowOf: Map<JournalRecord, PlacedRow>;
} {
  const records: JournalRecord[] = [];
  const rowOf = new Map<JournalRecord, PlacedRow>();
  const requests = new Map<string, ApprovalRequestRecord>();
  for (const row of rows)
    if (row.place.startsWith('approval ')) {
      const record = recordOf(row, requests) as ApprovalRequestRecord;
      requests.set(row.place.slice('approval '.length), record);
    }
  for (const row of rows) {
    const record = row.place.startsWith('approval ')
      ? requests.get(row.place.slice('approval '.length))
      : recordOf(row, requests);
    if (!record) continue;
    records.push(record);
    rowOf.set(record, row);
  }
  return { records, rowOf };
}

function recordOf(
  row: PlacedRow,
  requests: ReadonlyMap<string, ApprovalRequestRecord>,
): JournalRecord | undefined {
  const at = row.storedAt;
  const value = row.record as Record<string, unknown>;
  const model = /^model (.*)\|([^|]*)#(\d+)$/.exec(row.place);
  if (model) {
    const recorded = value as unknown as Pick<
      ModelCallRecord,
      'requestHash' | 'request' | 'answer'
    >;
    return {
      type: 'model-call',
      step: model[2]!,
      ...framed(model[1]!),
      index: Number(model[3]),
      // a worker runs without streaming
      mode: 'generate',
      requestHash: recorded.requestHash,
      request: recorded.request,
      answer: recorded.answer,
      at,
    };
  }
  const tool = /^tool (.*)\|([^|]*)\|([^|]*)$/.exec(row.place);
  if (tool)
    return {
      type: 'tool-call',
      step: tool[2]!,
      ...framed(tool[1]!),
      call: tool[3]!,
      toolCallId: '',
      tool: String(value.tool ?? 'tool'),
      input: value.input,
      ...('output' in value ? { output: value.output } : {}),
      ...(value.error ? { error: value.error as ToolCallRecord['error'] } : {}),
      at,
    };
  return approvalRecordOf(row, requests);
}

/** The record of an `approval` or `answer` row (an answer's place is its request's). */
function approvalRecordOf(
  row: PlacedRow,
  requests: ReadonlyMap<string, ApprovalRequestRecord>,
): JournalRecord | undefined {
  const at = row.storedAt;
  const value = row.record as Record<string, unknown>;
  if (row.place.startsWith('approval ')) {
    const request = value as unknown as RowRequest;
    const { calls, call } = requestPlace(row.place.slice('approval '.length));
    return {
      type: 'approval-request',
      step: request.step,
      ...(calls.length ? { calls } : {}),
      call,
      toolCallId: '',
      tool: request.tool,
      input: request.input,
      ...(request.question !== undefined ? { question: request.question } : {}),
      at,
    };
  }
  if (row.place.startsWith('answer ')) {
    const id = row.place.slice('answer '.length);
    const request = requests.get(id);
    if (!request) return undefined;
    const answer = value as unknown as RowAnswer;
    return {
      type: 'approval-answer',
      step: request.step,
      ...(request.calls ? { calls: request.calls } : {}),
      call: request.call,
      toolCallId: '',
      approved: answer.approved === true,
      ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
      ...(answer.input !== undefined ? { input: answer.input } : {}),
      ...(answer.output !== undefined ? { output: answer.output } : {}),
      automatic: false,
      ...(answer.source !== undefined ? { source: answer.source } : {}),
      ...(answer.answeredBy !== undefined ? { answeredBy: answer.answeredBy } : {}),
      ...(answer.answeredAt !== undefined ? { answeredAt: answer.answeredAt } : {}),
      at,
    };
  }
  return undefined;
}

/** The composite calls of a place key's first part (`a#0.0/b#0.1`, or none). */
function framed(calls: string): { calls?: string[] } {
  return calls ? { calls: calls.split('/') } : {};
}

/** A request id's composite calls and call id (`fan#0.1/get#0.0`). */
function requestPlace(id: string): { calls: string[]; call: string } {
  const parts = id.split('/');
  const call = parts.pop()!;
  return { calls: parts, call };
}

/** A fork of a run over the database, as {@link forkRows} makes it. */
export interface ForkedRows {
  /** The fork's rows: the parent's before the fork point, then the changed one(s). */
  rows: PlacedRow[];
  forkedFrom: ForkedFrom;
  point: ForkPoint;
  /** How many recorded model calls, tool executions and approvals replay. */
  replayed: number;
  /** What runs live after the fork point, in words. */
  live: string;
}

/**
 * The rows of a fork of the run `parent` (its rows `rows`, its lineage `parentFork` when it
 * is a fork itself) at the record `at`, with `change` made there: the rows stored before
 * the fork point as they are, and the fork point's row(s) with the change (a tool's result,
 * a model's answer, an approval's answer: its request and an `answer` row; nothing for
 * another model). Named and checked as a journal fork is (`forkJournal`).
 *
 * @throws {WorkflowError} `fork-record-unknown`, `fork-change-invalid`
 */
export function forkRows(
  parent: string,
  rows: readonly PlacedRow[],
  parentFork: ForkedFrom | undefined,
  options: { runId: string; at: string | number; change: ForkChangeRecord },
): ForkedRows {
  const { records, rowOf } = rowsAsRecords(rows);
  const header: JournalHeader = {
    type: 'journal',
    version: JOURNAL_VERSION,
    runId: parent,
    startedAt: new Date().toISOString(),
    ...(parentFork ? { forkedFrom: parentFork } : {}),
  };
  const points = forkPoints(records);
  const forked = forkJournal([header, ...records], options);
  const first = forked[0] as JournalHeader;
  const point = points.find((each) => each.name === first.forkedFrom!.record)!;
  const pointRow = rowOf.get(point.record)!;
  const copied: PlacedRow[] = [];
  for (const record of forked.slice(1)) {
    const row = rowOf.get(record);
    if (row) copied.push(row);
    // the answer to a request that waited is stored after it
    else
      copied.push({
        ...changedRow(record, pointRow),
        ...(point.record.type === 'approval-request' ? { after: 1 } : {}),
      });
  }
  // a request asked before the fork point and answered after it is asked again: its timeout counts from now
  const answered = new Set(copied.map((row) => row.place));
  const now = new Date().toISOString();
  const fresh = copied.map((row) =>
    row.place.startsWith('approval ') &&
    !answered.has(answerKey(row.place.slice('approval '.length)))
      ? { ...row, record: { ...(row.record as object), askedAt: now } }
      : row,
  );
  return {
    rows: fresh,
    forkedFrom: first.forkedFrom!,
    point,
    replayed: forkPoints(forked.slice(1)).length - (options.change.kind === 'model' ? 0 : 1),
    live: liveWords(points, point, options.change),
  };
}

/** The row of a record `forkJournal` changed, in the place of `pointRow` (the fork point's). */
function changedRow(record: JournalRecord, pointRow: PlacedRow): PlacedRow {
  const value = pointRow.record as Record<string, unknown>;
  // stored right after the fork point's row, before anything the parent stored after it
  const storedAt = pointRow.storedAt;
  switch (record.type) {
    case 'model-call':
      return { place: pointRow.place, record: { ...value, answer: record.answer }, storedAt };
    case 'tool-call': {
      const { error: _error, ...rest } = value;
      return { place: pointRow.place, record: { ...rest, output: record.output }, storedAt };
    }
    case 'approval-answer': {
      const answer = record as ApprovalAnswerRecord;
      const id = [...(answer.calls ?? []), answer.call].join('/');
      const message: RowAnswer = {
        id,
        approved: answer.approved,
        ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
        ...(answer.output !== undefined ? { output: answer.output } : {}),
        answeredAt: answer.answeredAt ?? new Date().toISOString(),
        source: 'fork',
      };
      return { place: answerKey(id), record: message, storedAt };
    }
    default:
      throw new WorkflowError(
        'fork-change-invalid',
        `june: a fork over the database cannot make the record ${record.type} at ${pointRow.place}.`,
      );
  }
}
