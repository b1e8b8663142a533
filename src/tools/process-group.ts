import { readdirSync, readFileSync } from 'node:fs';

/** How often {@link waitForProcessGroupExit} looks at the group again, in milliseconds. */
const pollIntervalMs = 20;

/**
 * Sends `signal` to every process in the process group `pgid` (`kill(-pgid, signal)`).
 *
 * A group that is already gone is not an error.
 *
 * @returns `true` when the signal was delivered, `false` when the group no longer exists.
 * @throws {Error} the system's error when the signal cannot be sent for another reason (`EPERM`).
 * @example
 * ```ts
 * signalProcessGroup(child.pid!, 'SIGTERM');
 * ```
 */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/**
 * True while some process of the group `pgid` is still running.
 *
 * A process that has exited but was not yet collected by its parent (a zombie) does not count:
 * it runs nothing and holds nothing open. Linux tells them apart through `/proc`; elsewhere a
 * zombie member counts as running until it is collected.
 *
 * @example
 * ```ts
 * if (isProcessGroupRunning(child.pid!)) signalProcessGroup(child.pid!, 'SIGTERM');
 * ```
 */
export function isProcessGroupRunning(pgid: number): boolean {
  if (!signalProcessGroup(pgid, 0)) return false;
  if (process.platform !== 'linux') return true;
  return hasRunningMember(pgid);
}

/**
 * Resolves once no process of the group `pgid` is running, or after `timeoutMs` milliseconds.
 *
 * @returns `true` when the group is gone, `false` when `timeoutMs` passed first.
 * @example
 * ```ts
 * const gone = await waitForProcessGroupExit(child.pid!, 2000);
 * ```
 */
export async function waitForProcessGroupExit(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (isProcessGroupRunning(pgid)) {
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
  return true;
}

/**
 * Ends every process of the group `pgid`: `SIGTERM` first, then `SIGKILL` to whatever is still
 * running after `graceMs` milliseconds. Resolves when the group is gone (or, should a process
 * survive `SIGKILL` for another `graceMs`, e.g. one stuck in the kernel, gives up waiting).
 *
 * @returns the last signal that was needed: `'SIGTERM'`, `'SIGKILL'`, or `null` when nothing
 * was running.
 * @example
 * ```ts
 * await terminateProcessGroup(child.pid!, 2000);
 * ```
 */
export async function terminateProcessGroup(
  pgid: number,
  graceMs: number,
): Promise<NodeJS.Signals | null> {
  if (!isProcessGroupRunning(pgid)) return null;
  signalProcessGroup(pgid, 'SIGTERM');
  if (await waitForProcessGroupExit(pgid, graceMs)) return 'SIGTERM';
  signalProcessGroup(pgid, 'SIGKILL');
  await waitForProcessGroupExit(pgid, graceMs);
  return 'SIGKILL';
}

/** Scans `/proc` for a member of `pgid` that is not a zombie; `true` when `/proc` cannot be read. */
function hasRunningMember(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = fields[0];
    if (Number(fields[2]) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}
