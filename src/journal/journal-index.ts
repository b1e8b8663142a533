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
 * resume made again (see {@link retriedFailuresDropped}): the later record stands.
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
 * The records a resume answers from: all of them but the failed model calls that ended their
 * part of the run, which a resume makes again, as a person resuming a run that failed at a
 * model call wants. A failure is history, replayed as it happened, when a record after it
 * depends on it: one of its own branch (`<Parallel>`) or composite call, or of what encloses
 * them (a `<Catch>` retried it, its fallback ran, the composite tool's caller read the
 * error). The records of other branches or composite calls (whose calls part from the
 * failure's) ran beside it, not after it: they replay as recorded and leave the failure to be
 * made again. A later record of the same call (a resume that made it again) does not depend
 * on it either: it takes its place.
 *
 * @example
 * ```ts
 * // the branch [b] failed at its model call while [a] went on: [b]'s call is made again
 * const index = new JournalIndex(retriedFailuresDropped(records));
 * ```
 */
export function retriedFailuresDropped(
  records: readonly JournalRecord[],
): readonly JournalRecord[] {
  const dropped = new Set<number>();
  /** What was recorded after the record looked at, by its calls: the model calls' keys, and whether anything else. */
  const later = new Map<
    string,
    { calls: readonly string[]; models: Set<string>; other: boolean }
  >();
  for (let at = records.length - 1; at >= 0; at--) {
    const record = records[at]!;
    if (
      record.type !== 'model-call' &&
      record.type !== 'tool-call' &&
      record.type !== 'approval-request' &&
      record.type !== 'approval-answer'
    )
      continue;
    const calls = record.calls ?? [];
    const call = record.type === 'model-call' ? `${placeKey(record)}|${record.index}` : undefined;
    // a record of an older version not upgraded (no answer) is not a failure
    const answer =
      record.type === 'model-call'
        ? (record.answer as ModelCallRecord['answer'] | undefined)
        : undefined;
    if (answer?.error !== undefined) {
      const depends = [...later.values()].some(
        (after) =>
          nested(after.calls, calls) &&
          (after.other || after.models.size > (after.models.has(call!) ? 1 : 0)),
      );
      if (!depends) dropped.add(at);
    }
    const key = JSON.stringify(calls);
    const entry = later.get(key) ?? { calls, models: new Set<string>(), other: false };
    if (call !== undefined) entry.models.add(call);
    else entry.other = true;
    later.set(key, entry);
  }
  return dropped.size === 0 ? records : records.filter((_, index) => !dropped.has(index));
}

/** Whether one of the two call lists encloses the other (or they are the same): the same line of work, not branches beside each other. */
function nested(a: readonly string[], b: readonly string[]): boolean {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return false;
  return true;
}
