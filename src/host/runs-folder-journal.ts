import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileJournalStore } from '../journal/file-journal-store.js';
import type { JournalRecord } from '../journal/journal-record.js';
import type { JournalStore } from '../journal/journal-store.js';
import { loadJournal } from '../journal/load-journal.js';
import { readRunJournal } from '../journal/read-run-journal.js';
import { ownerText, type RunLease, type RunOwner } from '../journal/run-lease.js';
import { listThread } from '../journal/thread.js';

export type { JournalRecord, JournalStore, RunLease, RunOwner };
export { ownerText };

/**
 * The journals of a runs folder (`<dir>/<runId>/journal.jsonl`), for a run this process runs
 * there (`june run`, `june try-tool`): the folder's part of the journal protocol, beside its
 * traces, answers files and resume seals (src/host/). Entry points take the store from here
 * and never open the journal's stores themselves.
 *
 * @example
 * ```ts
 * const journal = runsFolderJournal('.june/runs');
 * const lease = await journal.lease!('r1', { wait: true });
 * ```
 */
export function runsFolderJournal(dir: string): JournalStore {
  return fileJournalStore({ dir });
}

/**
 * The journal a run is taken up again from (`resume`: a run id of the folder, checked to be
 * of `workflow`) or answered from (`replay`: a run id of the folder, or a journal file: a
 * path with a `/`, or ending in `.jsonl`); `undefined` with neither.
 *
 * @throws {JuneError} `journal-missing`, `journal-corrupt`, `journal-mismatch` (a resumed run
 *   of another workflow), `journal-unreadable`, `journal-version-unsupported`.
 */
export async function recordedRun(
  store: JournalStore,
  which: { resume?: string; replay?: string },
  workflow: string,
): Promise<JournalRecord[] | undefined> {
  if (which.resume !== undefined) return readRunJournal(store, which.resume, workflow);
  if (which.replay === undefined) return undefined;
  const isFile = /[\\/]/.test(which.replay) || which.replay.endsWith('.jsonl');
  return isFile ? loadJournal(which.replay) : readRunJournal(store, which.replay);
}

/**
 * The journals of a thread's runs in `store`, in order (each run's records): what a model
 * script of a new run of the thread goes on after (`june run --thread --script`); with
 * `before`, of its runs before that order only (what a resumed run of the thread, or a fork
 * of one, goes on after). A run's journal that cannot be read counts as none.
 */
export async function threadJournals(
  store: JournalStore,
  threadId: string,
  before?: number,
): Promise<JournalRecord[][]> {
  const runs = (await listThread(store, threadId)).filter(
    (run) => before === undefined || run.order < before,
  );
  return Promise.all(runs.map((run) => store.read(run.runId).catch(() => [])));
}

/**
 * What the runs folder `dir` already has of the run `runId`: its trace (`<runId>.json`),
 * else its journal (`<runId>/journal.jsonl`: a fork not started yet has only that), else
 * nothing. A new run given that id would overwrite the trace, so `june run --run-id` asks
 * first.
 */
export function runInFolder(dir: string, runId: string): 'trace' | 'journal' | undefined {
  if (existsSync(join(dir, `${runId}.json`))) return 'trace';
  if (existsSync(join(dir, runId, 'journal.jsonl'))) return 'journal';
  return undefined;
}
