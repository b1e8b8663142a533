import { readUserFile } from './read-user-file.js';
import { WorkflowError } from '../errors/index.js';
import { decodeJournal } from './journal-codec.js';
import type { JournalRecord } from './journal-record.js';

/**
 * Reads a journal file (`journal.jsonl`), e.g. a recording kept as a test fixture.
 *
 * @param path - the file, absolute or relative to the current directory.
 * @returns its records, header first.
 * @throws {WorkflowError} `journal-unreadable` when the file cannot be read, or is empty.
 * @throws {SystemError} `journal-corrupt` naming the file and line of a bad record (a last
 *   line cut off by a crash is ignored).
 * @throws {JuneError} `journal-version-unsupported` for a journal of another schema version.
 * @example
 * ```ts
 * import { loadJournal } from 'june';
 * const recording = await loadJournal('test/fixtures/journals/release.jsonl');
 * const { output } = await run(<Release />, { replay: recording }).result;
 * ```
 */
export async function loadJournal(path: string): Promise<JournalRecord[]> {
  const { text, shown } = await readUserFile(
    path,
    (name, problem, cause) =>
      new WorkflowError(
        'journal-unreadable',
        `june: cannot read the journal ${name}: ${problem}. Check the path (a journal is a run's journal.jsonl file); a relative path is read from the current directory.`,
        { cause },
      ),
  );
  const records = decodeJournal(text, shown);
  if (records.length === 0) {
    throw new WorkflowError(
      'journal-unreadable',
      `june: the journal ${shown} is empty; a journal starts with a {"type":"journal"} header line.`,
    );
  }
  return records;
}
