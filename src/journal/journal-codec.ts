import { errorData, revivedError, SystemError } from '../errors/index.js';
import {
  JOURNAL_VERSION,
  JOURNAL_VERSIONS,
  type JournalRecord,
  type RecordedError,
} from './journal-record.js';

export { revivedError };
import { taggedJson, untagBytes } from '../json/tagged-json.js';
import { journalRecordProblem } from './journal-record-schema.js';
import { upgradeJournal } from './journal-upgrade.js';

/**
 * One record as one line of JSON (no newline). Values JSON cannot hold are tagged so
 * {@link decodeJournal} gives them back: a `Date` as `{"$date": iso}`, an `Error` as
 * `{"$error": {name, message, code?}}`, bytes as `{"$bytes": base64}` and a BigInt as its
 * decimal string (the last two by {@link taggedJson}, as model requests are written).
 *
 * @example
 * ```ts
 * encodeRecord({ type: 'resume', at: new Date().toISOString() }); // '{"type":"resume","at":"..."}'
 * ```
 */
export function encodeRecord(record: JournalRecord): string {
  return JSON.stringify(record, function (this: Record<string, unknown>, key, value: unknown) {
    const raw = this[key];
    if (raw instanceof Date)
      return { $date: Number.isNaN(raw.getTime()) ? null : raw.toISOString() };
    if (raw instanceof Error) return { $error: errorData(raw, { blame: true }) };
    return taggedJson(raw, value);
  });
}

/**
 * Reads the text of a journal file: one record per line, the first a header of a version
 * this June reads ({@link JOURNAL_VERSIONS}); records of an older version are upgraded to
 * the current one ({@link upgradeJournal}; the header keeps its version). A last line
 * without a newline was cut off by a crash: it is ignored unless it is a whole record.
 * Blank lines are skipped.
 *
 * @param label - the journal in messages, e.g. its file path.
 * @throws {SystemError} `journal-corrupt` naming `label` and the line, when a line is not
 *   JSON or not a journal record (`journalRecordSchema`), or the first record is not a
 *   header.
 * @throws {SystemError} `journal-version-unsupported` when the header has another version.
 * @example
 * ```ts
 * const records = decodeJournal(readFileSync(path, 'utf8'), path);
 * ```
 */
export function decodeJournal(text: string, label: string): JournalRecord[] {
  const lines = text.split('\n');
  const cut = lines.pop() ?? '';
  const records: JournalRecord[] = [];
  const take = (line: string, number: number, lastCut: boolean) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line, revive);
    } catch (error) {
      if (lastCut) return;
      throw corrupt(label, number, `it is not JSON (${(error as Error).message})`);
    }
    const first = records.length === 0;
    // the version first: another version's header may have another shape
    if (first && (value as { type?: unknown } | null)?.type === 'journal')
      checkVersion(value as { version: unknown }, label);
    const problem = journalRecordProblem(value) ?? placeProblem(value as JournalRecord, first);
    if (problem !== undefined) {
      if (lastCut) return;
      throw corrupt(label, number, problem);
    }
    records.push(value as JournalRecord);
  };
  lines.forEach((line, i) => take(line, i + 1, false));
  take(cut, lines.length + 1, true);
  return upgradeJournal(records);
}

function revive(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.length !== 1) return value;
  const tagged = value as Record<string, unknown>;
  if (typeof tagged.$date === 'string' || tagged.$date === null)
    return new Date(tagged.$date === null ? Number.NaN : tagged.$date);
  const bytes = untagBytes(value);
  if (bytes) return bytes;
  if (typeof tagged.$error === 'object' && tagged.$error !== null)
    return revivedError(tagged.$error as RecordedError);
  return value;
}

/** A header anywhere but on the first line, or a first line that is not a header. */
function placeProblem(record: JournalRecord, first: boolean): string | undefined {
  if (first && record.type !== 'journal')
    return `the first record has the type "${record.type}"; a journal starts with a {"type":"journal"} header`;
  if (!first && record.type === 'journal')
    return 'a second {"type":"journal"} header; a journal has one, on its first line';
  return undefined;
}

function checkVersion(header: { version: unknown }, label: string): void {
  if (JOURNAL_VERSIONS.includes(header.version as number)) return;
  throw new SystemError(
    'journal-version-unsupported',
    `june: ${label} has journal version ${JSON.stringify(header.version)}; this June reads versions ${JOURNAL_VERSIONS[0]} to ${JOURNAL_VERSIONS.at(-1)} (it writes ${JOURNAL_VERSION}). Use the June version that wrote it, or start a new run.`,
  );
}

function corrupt(label: string, line: number, why: string): SystemError {
  return new SystemError(
    'journal-corrupt',
    `june: ${label} is corrupt at line ${line}: ${why}. Fix or remove that line, or start a new run.`,
  );
}
