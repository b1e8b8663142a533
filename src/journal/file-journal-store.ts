import { randomBytes } from 'node:crypto';
import {
  appendFile,
  link,
  mkdir,
  open,
  readdir,
  readFile,
  rm,
  rmdir,
  stat,
  writeFile,
} from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { WorkflowError } from '../errors/index.js';
import { isRunId } from '../engine/run-id.js';
import { decodeJournal, encodeRecord } from './journal-codec.js';
import { fileProblem } from './file-problem.js';
import type { JournalHeader, JournalRecord } from './journal-record.js';
import { journalExists, type JournalStore } from './journal-store.js';
import { leaseFileOwner, leaseFileRunId, tryLeaseFile } from './lease-file.js';
import { runOwned, takeLease, type RunLeaseOptions, type RunOwner } from './run-lease.js';
import { checkThreadId, threadBusy, waitNamingHolder } from './thread.js';
import type { ThreadRun } from './thread-run.js';

/** Options of {@link fileJournalStore}. */
export interface FileJournalStoreOptions {
  /**
   * The folder of runs; each run's journal is `<dir>/<runId>/journal.jsonl`. Relative to the
   * current directory when the store is made.
   * @default '.june/runs'
   */
  dir?: string;
}

/**
 * A {@link JournalStore} on the file system: one JSON Lines file per run,
 * `<dir>/<runId>/journal.jsonl` (next to the trace `<dir>/<runId>.json` that `june run` writes).
 *
 * Journals are private to their user: folders are created with mode 0700, files with 0600.
 * A new run's journal is created atomically: its header is written to a file of its own,
 * which is then hard-linked to `journal.jsonl` (a link never replaces a file). When the
 * journal exists, `create` fails with `journal-exists` and changes nothing, so of two runs
 * with one id (in one process or in two) exactly one gets the journal, and a crash never
 * leaves a journal without its header. Appends for one run are
 * written one after another, each record as one whole line. A file
 * whose last line was cut off by a crash is trimmed back to its last whole record before
 * the next append, so the cut line never ends up in the middle. Nothing is fsynced.
 *
 * A run's owner holds `<dir>/<runId>/owner.json` (its `pid`, `hostname`, `startedAt`), taken
 * atomically by `lease` (see `tryLeaseFile`) and removed when it lets go or its process
 * exits; a lease whose process is gone (killed, crashed) is taken over by the next one.
 *
 * Threads live in `<dir>/.threads/<threadId>/`: `runs.jsonl`, the thread's index (one line per
 * run, `{ runId, order, startedAt }`, appended when the run's journal is created), and
 * `owner.json`, the thread's lease, held like a run's and naming the run that holds it.
 * `deleteThread` removes each run's folder `<dir>/<runId>/` (its journal and everything kept
 * beside it), its trace `<dir>/<runId>.json`, and the thread's folder.
 *
 * @throws {WorkflowError} `journal-run-id-invalid` (from every method taking a run id) for an
 *   id that is not a run id ({@link isRunId}: 1 to 128 letters, digits, `.`, `_`, `-`); `journal-unreadable` (from
 *   `read`) when the journal is a directory or cannot be read.
 * @example
 * ```ts
 * const store = fileJournalStore({ dir: '.june/runs' });
 * await store.list(); // ['20261129-185225-4f2a9c1e7b30', ...]
 * ```
 */
export function fileJournalStore(options: FileJournalStoreOptions = {}): JournalStore {
  const files = new RunFiles(resolve(options.dir ?? join('.june', 'runs')));
  const store: JournalStore = {
    create: async (runId, header) => {
      await createJournal(files, store, runId, header);
      if (header.thread) await addToThread(files, runId, header);
    },
    append: (runId, record) => appendRecord(files, runId, record),
    read: (runId) => readJournal(files, runId),
    list: () => listJournals(files.dir),
    lease: async (runId, options) => {
      const path = files.ownerFileOf(runId);
      return takeLease(
        () => tryLeaseFile(path, runId),
        (owner) => runOwned(runId, owner, files.shown(path)),
        options,
      );
    },
    threadLease: (threadId, runId, options) => takeThreadLease(files, threadId, runId, options),
    listThread: (threadId) => readThreadIndex(files, threadId),
    listThreads: () => listThreadIds(files),
    deleteThread: async (threadId) => {
      const lease = await takeThreadLease(files, threadId, '');
      try {
        const runs = await readThreadIndex(files, threadId);
        for (const run of runs) {
          if (!isRunId(run.runId)) continue;
          await rm(join(files.dir, run.runId), { recursive: true, force: true });
          await rm(join(files.dir, `${run.runId}.json`), { force: true });
          files.checked.delete(run.runId);
        }
        await rm(files.threadDirOf(threadId), { recursive: true, force: true });
        await rmdir(join(files.dir, '.threads')).catch(() => {}); // when it was the last thread
        return runs;
      } finally {
        await lease.release();
      }
    },
    describe: (runId) =>
      files.shown(
        isRunId(runId) ? join(files.dir, runId, 'journal.jsonl') : join(files.dir, runId),
      ),
  };
  return store;
}

/**
 * What one {@link fileJournalStore} keeps: its folder, each run's append queue, and the runs
 * whose journal was checked for a cut-off last line.
 */
class RunFiles {
  /** Per run id: the last append (settled, never rejected), so appends run one after another. */
  readonly queues = new Map<string, Promise<void>>();
  /** Run ids whose journal is known to end in a whole line (no cut-off record to trim). */
  readonly checked = new Set<string>();

  constructor(readonly dir: string) {}

  /**
   * The journal file of a run.
   * @throws {WorkflowError} `journal-run-id-invalid` when `runId` is not a file name.
   */
  fileOf(runId: string): string {
    if (!isRunId(runId)) {
      throw new WorkflowError(
        'journal-run-id-invalid',
        `june: ${JSON.stringify(runId)} is not a run id; a run id is 1 to 128 letters, digits, ".", "_" and "-", not starting with "." or "-" (e.g. 20261129-185225-4f2a9c1e7b30).`,
      );
    }
    return join(this.dir, runId, 'journal.jsonl');
  }

  /**
   * The lease file of a run's owner.
   * @throws {WorkflowError} `journal-run-id-invalid` when `runId` is not a file name.
   */
  ownerFileOf(runId: string): string {
    this.fileOf(runId);
    return join(this.dir, runId, 'owner.json');
  }

  /**
   * The folder of a thread (its index and lease).
   * @throws {WorkflowError} `thread-id-invalid` when `threadId` is not a file name.
   */
  threadDirOf(threadId: string): string {
    checkThreadId(threadId);
    return join(this.dir, '.threads', threadId);
  }

  /** A file as messages show it: relative to the current directory when inside it. */
  shown(file: string): string {
    return relative(process.cwd(), file) || file;
  }
}

/**
 * `create`: the header goes to a draft file of its own, then linked in place, so the journal
 * appears whole or not at all.
 */
async function createJournal(
  files: RunFiles,
  store: JournalStore,
  runId: string,
  header: JournalHeader,
): Promise<void> {
  const file = files.fileOf(runId);
  const line = `${encodeRecord(header)}\n`;
  await files.queues.get(runId);
  await mkdir(join(files.dir, runId), { recursive: true, mode: 0o700 });
  // the header goes to a file of this call's own, which is then linked in place: the
  // journal appears whole, header included, or not at all (a link never replaces a file)
  const draft = join(files.dir, runId, `.journal-${process.pid}-${randomBytes(6).toString('hex')}`);
  await writeFile(draft, line, { flag: 'wx', mode: 0o600 });
  try {
    await link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw journalExists(store, runId);
    throw error;
  } finally {
    await rm(draft, { force: true });
  }
  files.checked.add(runId);
}

/** `append`: queued behind the run's previous append; the first one trims a cut-off last line. */
function appendRecord(files: RunFiles, runId: string, record: JournalRecord): Promise<void> {
  const file = files.fileOf(runId);
  const line = `${encodeRecord(record)}\n`;
  const previous = files.queues.get(runId) ?? Promise.resolve();
  const next = previous.then(async () => {
    // the first append of this store, or the first after a failed one: the file may end in a cut-off line
    if (!files.checked.has(runId)) {
      await mkdir(join(files.dir, runId), { recursive: true, mode: 0o700 });
      await trimCutLine(file);
      files.checked.add(runId);
    }
    try {
      await appendFile(file, line, { mode: 0o600 });
    } catch (error) {
      files.checked.delete(runId);
      throw error;
    }
  });
  files.queues.set(
    runId,
    next.catch(() => {}),
  );
  return next;
}

/** `read`: the run's records after its pending appends; none when the journal does not exist. */
async function readJournal(files: RunFiles, runId: string): Promise<JournalRecord[]> {
  const file = files.fileOf(runId);
  await files.queues.get(runId);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new WorkflowError(
      'journal-unreadable',
      `june: cannot read the journal ${files.shown(file)}: ${fileProblem(error)}. Move it away (or fix its permissions), or start a new run.`,
      { cause: error },
    );
  }
  return decodeJournal(text, files.shown(file));
}

/** `list`: the run ids in `dir` that have a journal file, sorted; none when `dir` is missing. */
async function listJournals(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const ids = await Promise.all(
    names
      .filter((name) => isRunId(name))
      .map(async (name) =>
        (await stat(join(dir, name, 'journal.jsonl')).catch(() => undefined))?.isFile()
          ? name
          : undefined,
      ),
  );
  return ids.filter((id): id is string => id !== undefined).sort();
}

/** Holds a thread for the run `runId` (its lease file names the run). */
async function takeThreadLease(
  files: RunFiles,
  threadId: string,
  runId: string,
  options?: RunLeaseOptions,
) {
  const path = join(files.threadDirOf(threadId), 'owner.json');
  let holder: string | undefined;
  return takeLease(
    async () => {
      const tried = await tryLeaseFile(path, runId, { recordRunId: true });
      if ('owner' in tried) holder = await leaseFileRunId(path);
      return tried;
    },
    (owner) => threadBusy(threadId, holder, owner, files.shown(path)),
    waitNamingHolder(options, () => holder),
  );
}

/** Adds a new run to its thread's index. */
async function addToThread(files: RunFiles, runId: string, header: JournalHeader): Promise<void> {
  const thread = header.thread!;
  const dir = files.threadDirOf(thread.id);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const entry: ThreadRun = { runId, order: thread.order, startedAt: header.startedAt };
  await appendFile(join(dir, 'runs.jsonl'), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
}

/** A thread's runs from its index, in order; none when it has no index. Lines that are no entry are passed. */
async function readThreadIndex(files: RunFiles, threadId: string): Promise<ThreadRun[]> {
  let text: string;
  try {
    text = await readFile(join(files.threadDirOf(threadId), 'runs.jsonl'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const runs: ThreadRun[] = [];
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as Partial<ThreadRun>;
      if (
        typeof entry.runId === 'string' &&
        typeof entry.order === 'number' &&
        typeof entry.startedAt === 'string'
      )
        runs.push({ runId: entry.runId, order: entry.order, startedAt: entry.startedAt });
    } catch {
      // a line cut off by a crash
    }
  }
  return runs.sort((a, b) => a.order - b.order);
}

/** The threads with an index in the runs folder, sorted. */
async function listThreadIds(files: RunFiles): Promise<string[]> {
  const dir = join(files.dir, '.threads');
  const names = await readdir(dir).catch(() => [] as string[]);
  const ids = await Promise.all(
    names
      .filter((name) => isRunId(name))
      .map(async (name) =>
        (await stat(join(dir, name, 'runs.jsonl')).catch(() => undefined))?.isFile()
          ? name
          : undefined,
      ),
  );
  return ids.filter((id): id is string => id !== undefined).sort();
}

/**
 * Before the first append to a file: a last line without a newline is a record a crash cut
 * off. It is cut away (or, should it be a whole record, ended with a newline), so the next
 * record starts on a line of its own.
 */
async function trimCutLine(file: string): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (text === '' || text.endsWith('\n')) return;
  const start = text.lastIndexOf('\n') + 1;
  if (isJson(text.slice(start))) {
    await appendFile(file, '\n');
    return;
  }
  const handle = await open(file, 'r+');
  try {
    await handle.truncate(Buffer.byteLength(text.slice(0, start)));
  } finally {
    await handle.close();
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The owner of a run in the runs folder `dir` (whoever holds `<dir>/<runId>/owner.json`, see
 * {@link fileJournalStore}), or undefined when no live process holds it. For readers that
 * must not act on a run someone runs (Studio). Never throws for a missing file.
 *
 * @example
 * ```ts
 * await fileRunOwner('.june/runs', runId); // { pid: 48211, hostname: 'build-7', startedAt: '2026-…' }
 * ```
 */
export function fileRunOwner(dir: string, runId: string): Promise<RunOwner | undefined> {
  return leaseFileOwner(new RunFiles(resolve(dir)).ownerFileOf(runId));
}
