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
 * True while the owner of `record` may still hold it: on this machine, while its process
 * runs (the same process: a pid the system gave to another process since does not count);
 * on another machine, until {@link LEASE_STALE_MS} after `renewedAtMs` (ms since epoch).
 */
export function ownerAlive(record: LeaseRecord, renewedAtMs: number): boolean {
  if (record.hostname !== hostname()) return Date.now() - renewedAtMs <= LEASE_STALE_MS;
  if (!processAlive(record.pid)) return false;
  const started = processStart(record.pid);
  return (
    record.processStart === undefined || started === undefined || started === record.processStart
  );
}

/** True while the process `pid` exists (a signal 0 reaches it, or it belongs to another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When the process `pid` started, in the system's clock ticks since boot (field 22 of
 * `/proc/<pid>/stat`), as text; undefined where there is no `/proc` or no such process.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may hold spaces: count after it
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
