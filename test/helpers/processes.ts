import { existsSync, readFileSync } from 'node:fs';

/**
 * True while `pid` runs, read from `/proc` (Linux): a zombie, exited but not yet collected,
 * does not count, since a machine whose first process collects no orphans keeps those.
 */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** The pids a file lists, one a line (none while it does not exist). */
export const pidsIn = (path: string): number[] =>
  existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').filter(Boolean).map(Number) : [];
