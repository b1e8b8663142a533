import { spawn, type ChildProcess } from 'node:child_process';
import { signalProcessGroup } from './process-group.js';

/** A process group June started and answers for until {@link HeldProcessGroup.release}. */
export interface HeldProcessGroup {
  /** The group's id (the pid of its leader). */
  readonly pgid: number;
  /** The group has ended (or was ended) the ordinary way: June stops answering for it. Safe to call more than once. */
  release(): void;
}

/**
 * How often the watchdog looks whether the group ended after its SIGTERM, in ms. Its wait
 * is counted in these ticks, so it needs no arithmetic `sh` may lack.
 */
const WATCHDOG_TICK_MS = 50;

/**
 * The watchdog beside a held group: a `sh` that reads its stdin, a pipe only June's process
 * holds. The read returns when that pipe closes, which happens when June's process is gone,
 * however it went (`kill -9` included); the watchdog then ends the group as June would
 * have: SIGTERM, then SIGKILL to whatever still runs after the grace. `$1` is the group,
 * `$2` the grace in ticks. A released watchdog is killed before its read returns.
 */
const WATCHDOG_SCRIPT = `read -r _ 2>/dev/null
kill -s TERM -- "-$1" 2>/dev/null || exit 0
i=0
while [ "$i" -lt "$2" ] && kill -s 0 -- "-$1" 2>/dev/null; do sleep ${WATCHDOG_TICK_MS / 1000}; i=$((i + 1)); done
kill -s KILL -- "-$1" 2>/dev/null
exit 0`;

/** The groups held now, each with its watchdog (none where it could not start). */
const held = new Map<HeldProcessGroup, ChildProcess | undefined>();
let exitHookInstalled = false;

/**
 * Holds the process group `pgid` (a `<Bash>` command's, a stdio MCP server's) so it cannot
 * outlive June's process, whatever way that process ends:
 *
 * - when it exits with the group still held (`process.exit()` after a second stop signal,
 *   the end of a program that abandoned a run), the group gets SIGKILL from an `exit`
 *   handler, before the process is gone;
 * - when it dies without running any handler (`kill -9`, the out-of-memory killer), a
 *   watchdog started now beside the group (a `sh` of its own process group, so Ctrl-C at a
 *   terminal does not reach it) sees June's end and gives the group SIGTERM, then SIGKILL
 *   after `graceMs`.
 *
 * The owner ends the group itself on the ordinary paths (abort, timeout, exit) and then
 * calls `release()`. Does nothing on Windows, which has no process groups.
 *
 * @example
 * ```ts
 * const child = spawn('bash', ['-c', command], { detached: true });
 * const group = holdProcessGroup(child.pid!, 2000);
 * try { ... } finally { await terminateProcessGroup(child.pid!, 2000); group.release(); }
 * ```
 */
export function holdProcessGroup(pgid: number, graceMs: number): HeldProcessGroup {
  const group: HeldProcessGroup = {
    pgid,
    release() {
      if (!held.has(group)) return;
      const watchdog = held.get(group);
      held.delete(group);
      watchdog?.kill('SIGKILL');
    },
  };
  if (process.platform === 'win32') return group;
  installExitHook();
  held.set(group, startWatchdog(pgid, graceMs));
  return group;
}

/** The groups held now, by pgid (for tests and diagnostics). */
export function heldProcessGroups(): number[] {
  return [...held.keys()].map((group) => group.pgid);
}

function startWatchdog(pgid: number, graceMs: number): ChildProcess | undefined {
  try {
    const ticks = Math.max(1, Math.ceil(graceMs / WATCHDOG_TICK_MS));
    const watchdog = spawn(
      'sh',
      ['-c', WATCHDOG_SCRIPT, 'june-watchdog', String(pgid), String(ticks)],
      {
        detached: true,
        stdio: ['pipe', 'ignore', 'ignore'],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      },
    );
    // no sh: the exit handler is the only guard left, which is no reason to fail the work
    watchdog.on('error', () => {});
    watchdog.stdin?.on('error', () => {});
    // neither the watchdog nor its pipe keeps June's process alive
    watchdog.unref();
    (watchdog.stdin as { unref?: () => void } | null)?.unref?.();
    return watchdog;
  } catch {
    return undefined;
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [group, watchdog] of held) {
      try {
        signalProcessGroup(group.pgid, 'SIGKILL');
      } catch {
        // not ours to signal any more (EPERM): nothing else can be done at exit
      }
      watchdog?.kill('SIGKILL');
    }
    held.clear();
  });
}
