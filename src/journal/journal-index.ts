import {
  placeKey,
  toolKey,
  type ApprovalAnswerRecord,
  type JournalHeader,
  type JournalRecord,
  type ModelCallRecord,
  type ToolCallRecord,
} from './journal-record.js';

/**
 * The records of a journal, looked up by place: model calls by place and index, tool calls
 * and approval answers by place and tool call id (taken in order, each once).
 *
 * @example
 * ```ts
 * const index = new JournalIndex(records);
 * index.modelCall({ step: 'release' }, 0)?.parts;
 * ```
 */
export class JournalIndex {
  readonly header: JournalHeader;
  readonly #models = new Map<string, Map<number, ModelCallRecord>>();
  readonly #tools = new Map<string, ToolCallRecord[]>();
  readonly #answers = new Map<string, ApprovalAnswerRecord[]>();
  readonly #requests = new Set<string>();

  /** @param records - a journal, header first (as the codec reads it). */
  constructor(records: readonly JournalRecord[]) {
    this.header = records[0] as JournalHeader;
    for (const record of records) {
      switch (record.type) {
        case 'model-call': {
          const key = placeKey(record);
          const calls = this.#models.get(key) ?? new Map<number, ModelCallRecord>();
          if (!calls.has(record.index)) calls.set(record.index, record);
          this.#models.set(key, calls);
          break;
        }
        case 'tool-call':
          push(this.#tools, toolKey(record, record.toolCallId), record);
          break;
        case 'approval-answer':
          push(this.#answers, toolKey(record, record.toolCallId), record);
          break;
        case 'approval-request':
          this.#requests.add(toolKey(record, record.toolCallId));
          break;
      }
    }
  }

  /** The model call recorded at `place` with 0-based `index`. */
  modelCall(place: { step: string; calls?: string[] }, index: number): ModelCallRecord | undefined {
    return this.#models.get(placeKey(place))?.get(index);
  }

  /** Takes the next recorded execution of the tool call `key` (from {@link toolKey}). */
  takeToolCall(key: string): ToolCallRecord | undefined {
    return this.#tools.get(key)?.shift();
  }

  /** Takes the next recorded answer to the approval of the tool call `key`. */
  takeAnswer(key: string): ApprovalAnswerRecord | undefined {
    return this.#answers.get(key)?.shift();
  }

  /** True when the journal holds an approval request for the tool call `key`. */
  hasRequest(key: string): boolean {
    return this.#requests.has(key);
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
}
