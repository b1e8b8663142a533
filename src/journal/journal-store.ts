import type { JournalRecord } from './journal-record.js';

/**
 * Where run journals are kept: an append-only list of records per run id. June writes
 * through it as a run goes and reads it back to resume or replay a run. The default is
 * {@link fileJournalStore} (`.june/runs/<runId>/journal.jsonl`); a database or a durable
 * execution engine can stand behind the same three methods.
 *
 * Contract:
 * - `append` keeps records in the order of the calls for one run id, each whole; June
 *   awaits it before it goes on (a record is stored before what follows it happens);
 * - `read` gives every record of a run in order, or `[]` when the run has no journal; it
 *   throws a `JuneError` `journal-corrupt` (naming where and which line) for a bad record;
 * - `list` gives the run ids that have a journal;
 * - `describe` (optional) names a run's journal in messages (a file path).
 *
 * @example
 * ```ts
 * const store: JournalStore = fileJournalStore();
 * const handle = run(<Release />, { journal: store });
 * // later, in another process:
 * run(<Release />, { journal: store, resume: handle.runId });
 * ```
 */
export interface JournalStore {
  append(runId: string, record: JournalRecord): Promise<void>;
  read(runId: string): Promise<JournalRecord[]>;
  list(): Promise<string[]>;
  describe?(runId: string): string;
}

/**
 * How messages name a run's journal in `store`.
 *
 * @example
 * ```ts
 * journalLabel(fileJournalStore(), 'r1'); // 'the journal .june/runs/r1/journal.jsonl'
 * ```
 */
export function journalLabel(store: JournalStore | undefined, runId: string): string {
  return `the journal ${store?.describe ? store.describe(runId) : `of run ${runId}`}`;
}
