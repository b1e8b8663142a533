import { WorkflowError } from '../errors/index.js';
import type { JournalHeader, JournalRecord } from './journal-record.js';
import type { RunLease, RunLeaseOptions } from './run-lease.js';
import type { ThreadRun } from './thread-run.js';

/**
 * Where run journals are kept: an append-only list of records per run id. June writes
 * through it as a run goes and reads it back to resume or replay a run. The default is
 * {@link fileJournalStore} (`.june/runs/<runId>/journal.jsonl`); a database or a durable
 * execution engine can stand behind the same four methods.
 *
 * Contract:
 * - `create` starts the journal of a new run with its header, atomically: when `runId`
 *   already has a journal it stores nothing and rejects with a `JuneError` `journal-exists`
 *   (of two runs that create the same id at once, exactly one succeeds), so two runs never
 *   share a journal. June calls it once per new run, before any other record;
 * - `append` adds a record to an existing journal, whole, after the ones stored before it.
 *   June calls it for one run only once the previous append has settled (it awaits each
 *   record before anything that depends on it happens), so a store needs no ordering of
 *   its own;
 * - `read` gives every record of a run in order, or `[]` when the run has no journal; it
 *   throws a `JuneError` `journal-corrupt` (naming where and which line) for a bad record;
 * - `list` gives the run ids that have a journal;
 * - `describe` (optional) names a run's journal in messages (a file path);
 * - `lease` (optional for stores of your own, implemented by June's) makes the caller the
 *   run's one owner until it calls `release()`: while it is held, every other `lease` of the
 *   run, in this process or another, rejects with a `JuneError` `run-owned` naming the
 *   owner (`pid`, `hostname`, `startedAt`), or, with `wait`, waits until it is let go. A
 *   lease whose owner died (a crash, a kill) must not hold the run for ever: the file store
 *   finds the owner's process gone. June takes the lease before it reads a resumed run's
 *   journal (and right after it creates a new run's), and lets go when the run ends in that
 *   process, so two processes never run one run at once. A store shared by several
 *   processes without `lease` gives no such guarantee.
 * - threads (optional; June's stores have them): `create` of a header with `thread` adds the
 *   run to that thread's index; `threadLease` holds a thread for one run at a time (another
 *   rejects with `thread-busy` naming the run, or, with `wait`, waits); `listThread` gives a
 *   thread's runs in order, `listThreads` the thread ids; `deleteThread` removes a thread's
 *   runs and index (under its lease). Without `listThread`/`listThreads`, June reads every
 *   journal's header; without `threadLease`, a store runs no thread.
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
  create(runId: string, header: JournalHeader): Promise<void>;
  append(runId: string, record: JournalRecord): Promise<void>;
  read(runId: string): Promise<JournalRecord[]>;
  list(): Promise<string[]>;
  describe?(runId: string): string;
  lease?(runId: string, options?: RunLeaseOptions): Promise<RunLease>;
  threadLease?(threadId: string, runId: string, options?: RunLeaseOptions): Promise<RunLease>;
  listThread?(threadId: string): Promise<ThreadRun[]>;
  listThreads?(): Promise<string[]>;
  deleteThread?(threadId: string): Promise<ThreadRun[]>;
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

/**
 * The error a store gives when a new run's id already has a journal.
 *
 * @example
 * ```ts
 * if (journals.has(runId)) throw journalExists(store, runId);
 * ```
 */
export function journalExists(store: JournalStore | undefined, runId: string): WorkflowError {
  return new WorkflowError(
    'journal-exists',
    `june: ${journalLabel(store, runId)} already exists; pass resume: "${runId}" to take that run up again, or leave out runId for a new run.`,
  );
}
