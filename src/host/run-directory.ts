import { watch, type FSWatcher } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Trace } from '../trace/trace-node.js';
import { isRunId } from '../engine/run-id.js';
import { readTraceFile } from './read-trace-file.js';
import { OUTSIDE_REASON, resolveInside } from './resolve-inside.js';
import { isUnreadable, type RunListEntry, type StudioEvent } from './run-list.js';
import { summarizeTrace } from './summarize-trace.js';
import { runFolder } from './run-answers.js';
import { countWaiting } from './waiting-approvals.js';

/** Options of {@link RunDirectory}. */
export interface RunDirectoryOptions {
  /** The directory of trace files (`<runId>.json`); it may not exist yet. */
  dir: string;
  /** How often to look at the directory even when `fs.watch` reports nothing, in ms. @default 1000 */
  pollIntervalMs?: number;
  /**
   * How long a file that does not parse may still be in the middle of a write, in ms: within
   * this time of its last change it keeps its last readable entry (or stays unlisted) and is
   * read again, instead of showing as unreadable. @default 500
   */
  settleMs?: number;
  /** Called for each change found: a run that appeared or changed, or a file that went away. */
  onChange?: (event: StudioEvent) => void;
}

/** What {@link RunDirectory.readTrace} gives for a run id. */
export type TraceLookup = { text: string } | { unreadable: string } | { missing: true };

interface FileState {
  mtimeMs: number;
  size: number;
  entry?: RunListEntry;
  unsettled?: boolean;
}

const WATCH_DEBOUNCE_MS = 100;
const READ_CONCURRENCY = 8;

/**
 * Studio's view of a runs directory: a summary per trace file, kept current by `fs.watch`
 * on the directory plus a poll every `pollIntervalMs` (for file systems where watching
 * misses changes, and for a directory created after Studio started). One scan runs at a
 * time; a file is read again only when its size or modification time changed. Nothing a
 * file holds can make it throw: a bad file becomes an `unreadable` entry.
 *
 * @example
 * ```ts
 * const runs = new RunDirectory({ dir: '.june/runs', onChange: (event) => console.log(event.type) });
 * await runs.start();
 * console.log(await runs.list());
 * runs.close();
 * ```
 */
export class RunDirectory {
  readonly dir: string;
  readonly #pollIntervalMs: number;
  readonly #settleMs: number;
  readonly #onChange: (event: StudioEvent) => void;
  readonly #files = new Map<string, FileState>();
  #scanning: Promise<void> | undefined;
  #again = false;
  #closed = false;
  #watcher: FSWatcher | undefined;
  #watchedIno: number | undefined;
  #poll: NodeJS.Timeout | undefined;
  #debounce: NodeJS.Timeout | undefined;
  #settle: NodeJS.Timeout | undefined;

  constructor(options: RunDirectoryOptions) {
    this.dir = options.dir;
    this.#pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.#settleMs = options.settleMs ?? 500;
    this.#onChange = options.onChange ?? (() => {});
  }

  /** Scans once, then starts watching and polling. */
  async start(): Promise<void> {
    await this.scan();
    this.#poll = setInterval(() => void this.scan(), this.#pollIntervalMs);
    this.#poll.unref();
  }

  /** The runs, newest first (by start time; unreadable files by modification time), after a scan. */
  async list(): Promise<RunListEntry[]> {
    await this.scan();
    const entries = [...this.#files.values()].flatMap((file) => (file.entry ? [file.entry] : []));
    return entries.sort((a, b) => sortTime(b) - sortTime(a) || a.runId.localeCompare(b.runId));
  }

  /**
   * The text of one run's trace file, checked. A file that does not parse yet but changed
   * within `settleMs` is read again (a bounded wait) before it counts as unreadable.
   * Returns `{ missing: true }` for an id that names no file (or is not a valid run id).
   */
  async readTrace(runId: string): Promise<TraceLookup> {
    if (!isRunId(runId)) return { missing: true };
    const deadline = Date.now() + this.#settleMs;
    for (;;) {
      const found = await resolveInside(this.dir, `${runId}.json`);
      if (!found) return { missing: true };
      if ('outside' in found) return { unreadable: OUTSIDE_REASON };
      const { path, info } = found;
      const mtimeMs = info.mtimeMs;
      try {
        const checked = await this.#checkedText(runId, path, info);
        if (checked !== undefined) return { text: checked };
      } catch {
        return { missing: true };
      }
      const content = await readTraceFile(path);
      if ('trace' in content) return { text: content.text };
      if (Date.now() >= deadline || Date.now() - mtimeMs >= this.#settleMs)
        return { unreadable: content.unreadable };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Looks at the directory now (joins a scan in progress, and runs once more after it). */
  scan(): Promise<void> {
    if (this.#scanning) {
      this.#again = true;
      return this.#scanning;
    }
    this.#scanning = (async () => {
      do {
        this.#again = false;
        await this.#scanOnce();
      } while (this.#again && !this.#closed);
    })().finally(() => {
      this.#scanning = undefined;
    });
    return this.#scanning;
  }

  /** Stops watching and polling. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#poll);
    clearTimeout(this.#debounce);
    clearTimeout(this.#settle);
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  /**
   * The file's text without parsing it again, when a scan already found this very version
   * (same size and modification time, before and after the read) to be a readable trace.
   */
  async #checkedText(
    runId: string,
    path: string,
    before: { mtimeMs: number; size: number },
  ): Promise<string | undefined> {
    const cached = this.#files.get(`${runId}.json`);
    if (
      !cached?.entry ||
      cached.unsettled ||
      isUnreadable(cached.entry) ||
      cached.mtimeMs !== before.mtimeMs ||
      cached.size !== before.size
    )
      return undefined;
    const text = await readFile(path, 'utf8');
    const after = await stat(path);
    return after.mtimeMs === before.mtimeMs && after.size === before.size ? text : undefined;
  }

  async #scanOnce(): Promise<void> {
    if (this.#closed) return;
    let names: string[] = [];
    try {
      names = (await readdir(this.dir)).filter(
        (name) => name.endsWith('.json') && isRunId(name.slice(0, -5)),
      );
      await this.#watch();
    } catch {
      // No directory (yet): every run it had is gone; the poll looks again.
    }
    const seen = new Set(names);
    for (let i = 0; i < names.length; i += READ_CONCURRENCY) {
      // a file never stops the server: whatever goes wrong with one is left for the next scan
      await Promise.all(
        names.slice(i, i + READ_CONCURRENCY).map((name) => this.#refresh(name).catch(() => {})),
      );
    }
    for (const [name, file] of this.#files) {
      if (seen.has(name)) continue;
      this.#files.delete(name);
      if (file.entry) this.#onChange({ type: 'run-removed', runId: file.entry.runId });
    }
  }

  async #refresh(name: string): Promise<void> {
    const found = await resolveInside(this.dir, name);
    if (!found) return; // gone between readdir and now, or not a file: the next scan removes it
    const info = 'outside' in found ? found.outside : found.info;
    const cached = this.#files.get(name);
    if (cached && !cached.unsettled && cached.mtimeMs === info.mtimeMs && cached.size === info.size)
      return;
    const content =
      'outside' in found ? { unreadable: OUTSIDE_REASON } : await readTraceFile(found.path);
    const updatedAt = info.mtime.toISOString();
    let entry: RunListEntry;
    if ('trace' in content) {
      entry = await withThread(
        await withWaiting(summarized(content.trace, name, updatedAt), content.trace, this.dir),
        this.dir,
      );
    } else if (!('outside' in found) && Date.now() - info.mtimeMs < this.#settleMs) {
      this.#files.set(name, {
        mtimeMs: info.mtimeMs,
        size: info.size,
        ...(cached?.entry ? { entry: cached.entry } : {}),
        unsettled: true,
      });
      this.#scheduleSettle();
      return;
    } else {
      entry = { runId: name.slice(0, -5), file: name, unreadable: content.unreadable, updatedAt };
    }
    this.#files.set(name, { mtimeMs: info.mtimeMs, size: info.size, entry });
    if (!cached?.entry || JSON.stringify(cached.entry) !== JSON.stringify(entry))
      this.#onChange({ type: 'run', run: entry });
  }

  async #watch(): Promise<void> {
    const ino = (await stat(this.dir)).ino;
    if (this.#closed || (this.#watcher && this.#watchedIno === ino)) return;
    this.#watcher?.close();
    this.#watcher = undefined;
    try {
      const watcher = watch(this.dir, { persistent: false }, () => this.#scheduleScan());
      watcher.on('error', () => {
        watcher.close();
        if (this.#watcher === watcher) this.#watcher = undefined;
      });
      this.#watcher = watcher;
      this.#watchedIno = ino;
    } catch {
      // Watching is not supported here: the poll keeps the list current.
    }
  }

  #scheduleScan(): void {
    if (this.#debounce || this.#closed) return;
    this.#debounce = setTimeout(() => {
      this.#debounce = undefined;
      void this.scan();
    }, WATCH_DEBOUNCE_MS);
    this.#debounce.unref();
  }

  #scheduleSettle(): void {
    if (this.#settle || this.#closed) return;
    this.#settle = setTimeout(() => {
      this.#settle = undefined;
      void this.scan();
    }, this.#settleMs + 20);
    this.#settle.unref();
  }
}

/**
 * The run list's entry for a trace; should summing it up fail in a way no check foresaw,
 * the file is listed as unreadable (with the kind of failure, never its content).
 */
function summarized(trace: Trace, name: string, updatedAt: string): RunListEntry {
  try {
    return summarizeTrace(trace, name, updatedAt);
  } catch (error) {
    return {
      runId: name.slice(0, -5),
      file: name,
      unreadable: `Studio could not sum it up (${error instanceof Error ? error.name : typeof error})`,
      updatedAt,
    };
  }
}

/**
 * The entry of a run stopped while calls waited (`aborted`, its calls withdrawn), with how
 * many of them its journal holds unanswered (`pendingApprovals`): an answer to one resumes the
 * run. Its state stays the trace's (`aborted`), as the run page shows it: never `waiting`.
 */
async function withWaiting(entry: RunListEntry, trace: Trace, dir: string): Promise<RunListEntry> {
  if (isUnreadable(entry) || entry.status !== 'aborted') return entry;
  const waiting = await countWaiting(trace, runFolder(dir, entry.runId)).catch(() => 0);
  return waiting > 0 ? { ...entry, pendingApprovals: waiting } : entry;
}

/** The most of a journal read for its header: a header holds the run's props, rarely more. */
const HEADER_BYTES = 256 * 1024;

/**
 * The entry of a run of a thread, with its thread (id and order) from its journal's header;
 * the entry as it is for any other run, or a journal that cannot be read.
 */
async function withThread(entry: RunListEntry, dir: string): Promise<RunListEntry> {
  if (isUnreadable(entry)) return entry;
  let file;
  try {
    file = await open(join(runFolder(dir, entry.runId), 'journal.jsonl'), 'r');
  } catch {
    return entry;
  }
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await file.read(buffer, 0, HEADER_BYTES, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const end = text.indexOf('\n');
    if (end < 0) return entry;
    const thread = (
      JSON.parse(text.slice(0, end)) as { thread?: { id?: unknown; order?: unknown } }
    ).thread;
    if (typeof thread?.id !== 'string' || typeof thread.order !== 'number') return entry;
    return { ...entry, thread: { id: thread.id, order: thread.order } };
  } catch {
    return entry;
  } finally {
    await file.close();
  }
}

function sortTime(entry: RunListEntry): number {
  const time = Date.parse(isUnreadable(entry) ? entry.updatedAt : entry.startedAt);
  return Number.isNaN(time) ? 0 : time;
}
