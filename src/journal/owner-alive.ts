import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { RunOwner } from './run-lease.js';

/**
 * How long a lease of an owner on another machine lasts after its last sign of life (its
 * file's modification time, renewed every {@link LEASE_HEARTBEAT_MS}), in ms. An owner on this
 * machine is judged by its process instead.
 */
export const LEASE_STALE_MS = 60_000;

/** How often an owner renews its lease file's modification time, in ms. */
export const LEASE_HEARTBEAT_MS = 10_000;

/** A lease as a file keeps it: the owner, the lease's own token, and when its process started. */
export interface LeaseRecord extends RunOwner {
  /** Tells two leases of one process apart (and a lease from the next one). */
  token: string;
  /** The owner process's start time as the system counts it (Linux: `/proc/<pid>/stat`), to tell a reused pid. */
  processStart?: string;
}

/**
 * True while the owner of `record` may still hold it: on another machine, until
 * {@link LEASE_STALE_MS} after `renewedAtMs` (ms since epoch); on this machine, only while a
 * process with its pid runs and that process is the one that took the lease: its start time
 * (`/proc/<pid>/stat`, readable for every user's processes) equals the recorded
 * `processStart`. Anything else is stale: a pid that is not a positive integer (0 and -1
 * would signal a process group or every process), no such process, a reused pid, a start time
 * that does not match (a forged one in the future too), a record without `processStart`
 * where `/proc` tells start times. Where the system has no `/proc` (macOS), a running process
 * with the pid is all there is to go by.
 */
export function ownerAlive(record: LeaseRecord, renewedAtMs: number): boolean {
  if (record.hostname !== hostname()) return Date.now() - renewedAtMs <= LEASE_STALE_MS;
  const found = processFound(record.pid);
  if (found === 'none') return false;
  const started = processStart(record.pid);
  if (started !== undefined) return started === record.processStart;
  // /proc tells nothing of it: a system without /proc (trust the signal), one that hides
  // other users' processes (hidepid: a process of another user that a signal cannot reach
  // cannot be checked further, so it counts, as it always did), or it ended just now
  return !startTimesKnown() || found === 'other-user';
}

/**
 * True while the process `pid` exists (a signal 0 reaches it, or it belongs to another user).
 * Only a positive integer names one process: 0, negative and fractional pids are no process.
 */
export function processAlive(pid: number): boolean {
  return processFound(pid) !== 'none';
}

/** Whether a process `pid` exists, and whether a signal from this process reaches it. */
function processFound(pid: number): 'none' | 'reachable' | 'other-user' {
  if (!Number.isSafeInteger(pid) || pid <= 0) return 'none';
  try {
    process.kill(pid, 0);
    return 'reachable';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? 'other-user' : 'none';
  }
}

/**
 * When the process `pid` started, in the system's clock ticks since boot (field 22 of
 * `/proc/<pid>/stat`), as text; undefined where there is no `/proc` or no such process.
 */
export function processStart(pid: number): string | undefined {
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may hold spaces: count after it
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

let ownStart: string | undefined | null = null;

/** True where `/proc` tells processes' start times (it tells this process's). */
function startTimesKnown(): boolean {
  if (ownStart === null) ownStart = processStart(process.pid);
  return ownStart !== undefined;
}
