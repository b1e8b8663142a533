import {
  placeKey,
  toolKey,
  type ApprovalAnswerRecord,
  type ApprovalRequestRecord,
  type JournalHeader,
  type JournalPlace,
  type JournalRecord,
  type ModelCallRecord,
  type ToolCallRecord,
} from './journal-record.js';
import { wholeRequest } from './whole-request.js';

/**
 * The records of a journal, looked up by place: model calls by place and index; tool calls,
 * approval requests and approval answers by place and call id (the key of {@link toolKey}).
 * Should a key occur twice, the first record stands, except for a failed model call that a
 * resume made again (see {@link lastFailureDropped}): the later record stands.
 *
 * @example
 * ```ts
 * const index = new JournalIndex(records);
 * index.modelCall({ step: 'release' }, 0)?.parts;
 * index.answer(toolKey({ step: 'release' }, 'release#1.0'))?.approved;
 * ```
 */
export class JournalIndex {
  readonly header: JournalHeader;
  readonly #models = new Map<string, ModelCallRecord>();
  readonly #tools = new Map<string, ToolCallRecord>();
  readonly #answers = new Map<string, ApprovalAnswerRecord>();
  readonly #requests = new Map<string, ApprovalRequestRecord>();
  readonly #byHash = new Map<string, ModelCallRecord>();

  /** @param records - a journal, header first (as the codec reads it). */
  constructor(records: readonly JournalRecord[]) {
    this.header = records[0] as JournalHeader;
    for (const record of records) {
      switch (record.type) {
        case 'model-call': {
          // a failed call that a resume made again: the later record stands
          const key = `${placeKey(record)}|${record.index}`;
          if (this.#models.get(key)?.answer.error !== undefined) this.#models.delete(key);
          first(this.#models, key, record);
          first(this.#byHash, record.requestHash, record);
          break;
        }
        case 'tool-call':
          first(this.#tools, toolKey(record, record.call), record);
          break;
        case 'approval-answer':
          first(this.#answers, toolKey(record, record.call), record);
          break;
        case 'approval-request':
          first(this.#requests, toolKey(record, record.call), record);
          break;
      }
    }
  }

  /** The model call recorded at `place` with 0-based `index`. */
  modelCall(place: JournalPlace, index: number): ModelCallRecord | undefined {
    return this.#models.get(`${placeKey(place)}|${index}`);
  }

  /** The whole request of a recorded model call, its prompt put together when the record keeps only what it added. */
  wholeRequest(record: ModelCallRecord): unknown {
    return wholeRequest(record, (hash) => this.#byHash.get(hash));
  }

  /** The recorded execution of the tool call `key` (from {@link toolKey}). */
  toolCall(key: string): ToolCallRecord | undefined {
    return this.#tools.get(key);
  }

  /** The recorded answer to the approval of the tool call `key`. */
  answer(key: string): ApprovalAnswerRecord | undefined {
    return this.#answers.get(key);
  }

  /** The recorded approval request of the tool call `key`. */
  request(key: string): ApprovalRequestRecord | undefined {
    return this.#requests.get(key);
  }
}

function first<T>(map: Map<string, T>, key: string, value: T): void {
  if (!map.has(key)) map.set(key, value);
}

/**
 * The records a resume answers from: all of them but a failed model call that ended the run
 * (no call, tool call or approval came after it). Such a call is made again on resume, as a
 * person resuming a run that failed at a model call wants; a failure that something came
 * after (a `<Catch>` retried it, its fallback ran) is history, replayed as it happened.
 */
export function lastFailureDropped(records: readonly JournalRecord[]): readonly JournalRecord[] {
  const last = records.findLastIndex(
    (record) =>
      record.type === 'model-call' ||
      record.type === 'tool-call' ||
      record.type === 'approval-request' ||
      record.type === 'approval-answer',
  );
  const record = records[last];
  if (record?.type !== 'model-call' || record.answer.error === undefined) return records;
  return records.filter((_, index) => index !== last);
}
