import { answerToolCalls } from '../models/answer-forms.js';
import { readModelAnswer } from '../models/read-model-answer.js';
import {
  callIdOf,
  describePlace,
  type JournalRecord,
  type ModelCallRecord,
} from './journal-record.js';

type Keyed = Extract<JournalRecord, { toolCallId: string }>;

/** A model call as versions 1 to 3 wrote it: the AI SDK 6 `parts` or `result` on the record. */
type OlderModelCall = Omit<ModelCallRecord, 'answer'> & {
  answer?: undefined;
  parts?: unknown[];
  result?: Record<string, unknown>;
};

/**
 * The records of a journal in the current schema (version 6), whatever version wrote them
 * (records of versions 4 and 5 are version 6 records already: no approval edits before 5,
 * no failed model calls before 6):
 *
 * - a model call of versions 1 to 3 keeps its answer's `parts` or `result` (AI SDK 6,
 *   provider specification v3) as an `answer` of spec `v3`, which replays as `v4`;
 * - records written under schema version 1 (the header's version, until a `resume` record
 *   names a newer one) get their call ids (below).
 *
 * Version 1 keyed tool calls, approvals and composite calls by the provider's `toolCallId`.
 * Each such id is replaced by the call id of the tool call it names ({@link callIdOf}), found
 * in the model-call record at the same place whose answer asked for it; an id no answer
 * names becomes `<step id>#<toolCallId>`.
 *
 * @example
 * ```ts
 * const records = upgradeJournal(decoded); // v1 `calls: ['c_release']` → `calls: ['plan#1.0']`
 * ```
 */
export function upgradeJournal(written: JournalRecord[]): JournalRecord[] {
  const records = written.map(withAnswer);
  const old = new Set<JournalRecord>();
  let version = records[0]?.type === 'journal' ? records[0].version : 2;
  for (const record of records) {
    if (record.type === 'resume' && record.version !== undefined) version = record.version;
    else if (version === 1 && record.type !== 'journal') old.add(record);
  }
  if (old.size === 0) return records;
  const ids = new V1Ids();
  // parents before children: a composite call's id comes from its caller's model call
  const models = records.filter(
    (record): record is ModelCallRecord => old.has(record) && record.type === 'model-call',
  );
  const upgraded = new Map<JournalRecord, JournalRecord>();
  for (const record of [...models].sort(
    (a, b) => (a.calls?.length ?? 0) - (b.calls?.length ?? 0),
  )) {
    const calls = ids.calls(record);
    ids.register(record.step, calls, record.index, record);
    upgraded.set(record, withCalls(record, calls));
  }
  return records.map((record) => {
    if (!old.has(record)) return record;
    if (record.type === 'model-call') return upgraded.get(record)!;
    if (!('toolCallId' in record)) return record;
    const calls = ids.calls(record);
    return {
      ...withCalls(record, calls),
      call: ids.own(record.step, calls, record.toolCallId),
    } as Keyed;
  });
}

/** Version 1 ids (`toolCallId`s) to call ids, from the model calls that asked for them. */
class V1Ids {
  readonly #own = new Map<string, string>();
  readonly #composite = new Map<string, string>();

  register(step: string, calls: string[], index: number, record: ModelCallRecord): void {
    const prefix = step.split(':').slice(0, -1).join(':');
    answerToolCalls(record.answer).forEach((call, position) => {
      const id = callIdOf(step, index, position);
      this.#own.set(`${calls.join('/')}|${step}|${call.toolCallId}`, id);
      this.#composite.set(`${calls.join('/')}|${prefix}|${call.toolName}|${call.toolCallId}`, id);
    });
  }

  /** A record's `calls`, each version 1 id replaced by the composite call's call id. */
  calls(record: { step: string; calls?: string[] }): string[] {
    const segments = record.step.split(':');
    const out: string[] = [];
    (record.calls ?? []).forEach((toolCallId, level) => {
      out.push(
        this.#composite.get(
          `${out.join('/')}|${segments.slice(0, level).join(':')}|${segments[level]}|${toolCallId}`,
        ) ?? `${segments[level]}#${toolCallId}`,
      );
    });
    return out;
  }

  own(step: string, calls: string[], toolCallId: string): string {
    return (
      this.#own.get(`${calls.join('/')}|${step}|${toolCallId}`) ??
      `${step.slice(step.lastIndexOf(':') + 1)}#${toolCallId}`
    );
  }
}

/** A model call of versions 1 to 3 with its `parts` or `result` as an `answer` of spec `v3`. */
function withAnswer(record: JournalRecord): JournalRecord {
  if (record.type !== 'model-call' || record.answer !== undefined) return record;
  const { parts, result, ...rest } = record as unknown as OlderModelCall;
  const where = `model call ${rest.index + 1} of ${describePlace(rest)}`;
  return { ...rest, answer: readModelAnswer({ parts, result }, where) };
}

function withCalls<R extends { calls?: string[] }>(record: R, calls: string[]): R {
  return calls.length > 0 ? { ...record, calls } : record;
}
