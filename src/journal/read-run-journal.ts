import { WorkflowError } from '../errors/index.js';
import type { JournalHeader, JournalRecord } from './journal-record.js';
import { journalLabel, type JournalStore } from './journal-store.js';

/**
 * Reads the journal of the run `runId` from `store`, to resume or replay it, and checks its
 * header: it is of that run and, when `workflow` is given, of that workflow.
 *
 * @throws {WorkflowError} `journal-missing` when the run has no journal in `store` (the
 *   message lists runs that have one); `journal-mismatch` when the header names another run
 *   or workflow.
 * @throws {SystemError} `journal-corrupt` from the store, naming the file and line.
 * @example
 * ```ts
 * const records = await readRunJournal(fileJournalStore(), '20261129-185225-4f2a9c1e7b30', 'release.tsx');
 * ```
 */
export async function readRunJournal(
  store: JournalStore,
  runId: string,
  workflow?: string,
): Promise<JournalRecord[]> {
  const label = journalLabel(store, runId);
  const records = await store.read(runId);
  if (records.length === 0) {
    const known = (await store.list()).slice(-5);
    throw new WorkflowError(
      'journal-missing',
      `june: there is no journal for the run ${runId} (${label.replace(/^the journal /, 'looked for ')}); ${known.length ? `runs with a journal: ${known.join(', ')}` : 'no run has a journal there'}. Check the run id.`,
    );
  }
  const header = records[0] as JournalHeader;
  if (header.runId !== runId) {
    throw new WorkflowError(
      'journal-mismatch',
      `june: ${label} is of the run ${header.runId}, not ${runId}; resume a run with its own journal.`,
    );
  }
  if (workflow !== undefined && header.workflow !== undefined && header.workflow !== workflow) {
    throw new WorkflowError(
      'journal-mismatch',
      `june: ${label} is of the workflow "${header.workflow}", not "${workflow}"; resume the run with the workflow that started it.`,
    );
  }
  return records;
}
