import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, unlinkSync } from 'node:fs';
import { link, mkdir, open, rm, rmdir, utimes, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LEASE_HEARTBEAT_MS, ownerAlive, processStart, type LeaseRecord } from './owner-alive.js';
import { thisProcessOwner, type LeaseAttempt, type RunLease, type RunOwner } from './run-lease.js';

/** How long a process may take to break a stale lease before its own claim counts as stale, in ms. */
const BREAK_STALE_MS = 10_000;

/**
 * One try at taking the lease file `path` (e.g. `<runs>/<runId>/owner.json`) for `runId`,
 * atomically: the record is written to a file of its own, then hard-linked to `path` (a
 * link never replaces a file), so of any number of processes exactly one gets it. A lease
 * whose owner is gone ({@link ownerAlive}: no process with its pid and start time runs, or,
 * from another machine, it gave no sign of life for a minute), and a file that holds no lease
 * record (truncated, not JSON), is broken (under a short lock of its own, `<path>.break`,
 * so two processes never both break it and one of them remove the other's new lease) and
 * taken.
 *
 * While held, the lease renews its file's modification time every 10 s (for processes on
 * other machines) and is removed when the process exits, however it exits short of a kill
 * (`process.on('exit')`); after a kill, the next taker finds the process gone.
 *
 * With `recordRunId` (a thread's lease), the record names the run holding it too
 * ({@link leaseFileRunId}).
 *
 * @returns the lease, or the owner that holds it now.
 */
export async function tryLeaseFile(
  path: string,
  runId: string,
  options: { recordRunId?: boolean } = {},
): Promise<LeaseAttempt> {
  const record: LeaseRecord = {
    ...ownRecord(),
    ...(options.recordRunId && runId !== '' ? { runId } : {}),
  };
  const text = `${JSON.stringify(record)}\n`;
  const made = await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  let last: RunOwner | undefined;
  for (let tries = 0; tries < 200; tries++) {
    if (await linkNew(path, text)) return { lease: fileLease(path, runId, record, made) };
    const current = await readLease(path);
    if (current === undefined) continue; // let go of meanwhile: try again
    if (current.record && ownerAlive(current.record, current.renewedAtMs))
      return { owner: ownerOf(current.record) };
    if (current.record) last = ownerOf(current.record);
    await breakStale(path, current);
  }
  return { owner: last ?? { pid: 0, hostname: 'unknown', startedAt: 'unknown' } };
}

/**
 * The owner holding the lease file `path` now, or undefined when it is free (no file, or an
 * owner that is gone). Never throws for a missing or unreadable file.
 */
export async function leaseFileOwner(path: string): Promise<RunOwner | undefined> {
  const current = await readLease(path).catch(() => undefined);
  if (!current?.record || !ownerAlive(current.record, current.renewedAtMs)) return undefined;
  return ownerOf(current.record);
}

/**
 * The run that holds the lease file `path` now (as `tryLeaseFile` wrote it), or undefined
 * when it is free or names none.
 */
export async function leaseFileRunId(path: string): Promise<string | undefined> {
  const current = await readLease(path).catch(() => undefined);
  const runId = (current?.record as { runId?: unknown } | undefined)?.runId;
  return typeof runId === 'string' ? runId : undefined;
}

interface ReadLease {
  text: string;
  /** Undefined when the file holds no lease record. */
  record: LeaseRecord | undefined;
  renewedAtMs: number;
}

/** The most a lease file holds, in bytes: anything larger is not a lease. */
const MAX_LEASE_BYTES = 4096;
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * The lease file as it is now; undefined when there is none. It is opened without following
 * a link, and read only when it is a regular file of at most 4 KiB: anything else (a link to
 * a device in a cloned repository) holds no lease record, so it is no owner and is broken.
 */
async function readLease(path: string): Promise<ReadLease | undefined> {
  let file;
  try {
    file = await open(path, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') return { text: '', record: undefined, renewedAtMs: 0 };
    throw error;
  }
  try {
    const info = await file.stat();
    if (!info.isFile() || info.size > MAX_LEASE_BYTES)
      return { text: '', record: undefined, renewedAtMs: info.mtimeMs };
    const text = (await file.readFile('utf8')).slice(0, MAX_LEASE_BYTES);
    return { text, record: leaseRecord(text), renewedAtMs: info.mtimeMs };
  } finally {
    await file.close();
  }
}

/** {@link readLease}'s record, synchronously (for the exit hook); undefined for anything else. */
function readLeaseSync(path: string): LeaseRecord | undefined {
  const fd = openSync(path, READ_FLAGS);
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > MAX_LEASE_BYTES) return undefined;
    const buffer = Buffer.alloc(info.size);
    return leaseRecord(buffer.subarray(0, readSync(fd, buffer)).toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

function leaseRecord(text: string): LeaseRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<LeaseRecord>;
    return typeof value.pid === 'number' &&
      typeof value.hostname === 'string' &&
      typeof value.startedAt === 'string' &&
      typeof value.token === 'string'
      ? (value as LeaseRecord)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A new lease record of this process, with its start time where the system tells it. */
function ownRecord(): LeaseRecord {
  const started = processStart(process.pid);
  return {
    ...thisProcessOwner(),
    token: randomBytes(12).toString('hex'),
    ...(started !== undefined ? { processStart: started } : {}),
  };
}

function ownerOf(record: LeaseRecord): RunOwner {
  return { pid: record.pid, hostname: record.hostname, startedAt: record.startedAt };
}

/** Writes `text` to a file of its own and links it to `path`: true when it took `path`. */
async function linkNew(path: string, text: string): Promise<boolean> {
  const draft = `${path}.${process.pid}-${randomBytes(6).toString('hex')}`;
  try {
    await writeFile(draft, text, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // the folder went away (the last owner of a run that never got a journal removed it)
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(draft, text, { flag: 'wx', mode: 0o600 });
  }
  try {
    await link(draft, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(draft, { force: true });
  }
}

/**
 * Removes the stale lease `seen`, unless another process is breaking it (then waits a moment)
 * or it changed meanwhile. The break lock is itself a lease file, broken when its process is
 * gone or took longer than {@link BREAK_STALE_MS}.
 */
async function breakStale(path: string, seen: ReadLease): Promise<void> {
  const breaker = `${path}.break`;
  if (!(await linkNew(breaker, JSON.stringify(ownRecord())))) {
    const other = await readLease(breaker);
    const lapsed =
      other !== undefined &&
      (Date.now() - other.renewedAtMs > BREAK_STALE_MS ||
        !other.record ||
        !ownerAlive(other.record, other.renewedAtMs));
    if (lapsed) await rm(breaker, { force: true });
    else await new Promise((resolve) => setTimeout(resolve, 10));
    return;
  }
  try {
    const again = await readLease(path);
    if (again?.text === seen.text) await rm(path, { force: true });
  } finally {
    await rm(breaker, { force: true });
  }
}

/** Leases this process holds, by file: removed at exit when still theirs. */
const held = new Map<string, string>();
let exitHook = false;

function removeHeldAtExit(): void {
  for (const [path, token] of held) {
    try {
      if (readLeaseSync(path)?.token === token) unlinkSync(path);
    } catch {
      // gone already
    }
  }
}

/** The lease just taken at `path`: renewed while held, removed on release or at exit. */
function fileLease(
  path: string,
  runId: string,
  record: LeaseRecord,
  madeFolder: string | undefined,
): RunLease {
  held.set(path, record.token);
  if (!exitHook) {
    exitHook = true;
    process.on('exit', removeHeldAtExit);
  }
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(path, now, now).catch(() => {});
  }, LEASE_HEARTBEAT_MS);
  heartbeat.unref();
  let released: Promise<void> | undefined;
  const release = async () => {
    clearInterval(heartbeat);
    if (held.get(path) === record.token) held.delete(path);
    const current = await readLease(path).catch(() => undefined);
    if (current?.record?.token === record.token) await rm(path, { force: true });
    // a folder made for a run that got no journal (a resume of a missing run) goes too
    if (madeFolder !== undefined) await rmdir(dirname(path)).catch(() => {});
  };
  return {
    runId,
    owner: ownerOf(record),
    release: () => (released ??= release()),
  };
}
