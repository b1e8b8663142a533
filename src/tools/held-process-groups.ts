import { spawn, type ChildProcess } from 'node:child_process';
import { signalProcessGroup } from './process-group.js';

/** A process group June starts and answers for until {@link HeldProcessGroup.release}. */
export interface HeldProcessGroup {
  /** The group's id (the pid of its leader), once {@link HeldProcessGroup.attach} named it. */
  readonly pgid: number | undefined;
  /** Names the group, as soon as its leader is spawned (once; later calls are ignored). */
  attach(pgid: number): void;
  /** The group has ended (or was ended, or never started) the ordinary way: June stops answering for it. Safe to call more than once. */
  release(): void;
}

/**
 * How often the watchdog looks whether the group ended after its SIGTERM, in ms. Its wait
 * is counted in these ticks, so it needs no arithmetic `sh` may lack.
 */
const WATCHDOG_TICK_MS = 50;

/**
 * The watchdog beside a held group: a `sh` that reads its stdin, a pipe only June's process
 * holds. Its first line names the group (written the moment the group's leader is spawned;
 * the watchdog itself is started before, so no moment exists in which the group runs
 * unwatched). The next read returns when the pipe closes, which happens when June's process
 * is gone, however it went (`kill -9` included); the watchdog then ends the group as June
 * would have: SIGTERM, then SIGKILL to whatever still runs after the grace. `$1` is the grace
 * in ticks. A released watchdog is killed before its read returns; one whose pipe closes
 * before it was told a group has nothing to end.
 */
const WATCHDOG_SCRIPT = `read -r group 2>/dev/null || exit 0
case "$group" in ''|*[!0-9]*) exit 0 ;; esac
read -r _ 2>/dev/null
kill -s TERM -- "-$group" 2>/dev/null || exit 0
i=0
while [ "$i" -lt "$1" ] && kill -s 0 -- "-$group" 2>/dev/null; do sleep ${WATCHDOG_TICK_MS / 1000}; i=$((i + 1)); done
kill -s KILL -- "-$group" 2>/dev/null
exit 0`;

/** The groups held now, each with its watchdog (none where it could not start). */
const held = new Map<HeldProcessGroup, ChildProcess | undefined>();
let exitHookInstalled = false;

/**
 * Holds a process group June is about to start (a `<Bash>` command's, a stdio MCP
 * server's) so it cannot outlive June's process, whatever way that process ends. Call it
 * before spawning the group's leader (`detached: true`), then `attach(child.pid)` at once:
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
 * const group = holdProcessGroup(2000);
 * const child = spawn('bash', ['-c', command], { detached: true });
 * if (child.pid !== undefined) group.attach(child.pid);
 * try { ... } finally { await terminateProcessGroup(child.pid!, 2000); group.release(); }
 * ```
 */
export function holdProcessGroup(graceMs: number): HeldProcessGroup {
  let pgid: number | undefined;
  const group: HeldProcessGroup = {
    get pgid() {
      return pgid;
    },
    attach(id) {
      if (pgid !== undefined || !held.has(group)) return;
      pgid = id;
      // a pipe write that fits its buffer is made at once, before this call returns
      held.get(group)?.stdin?.write(`${id}\n`);
    },
    release() {
      if (!held.has(group)) return;
      const watchdog = held.get(group);
      held.delete(group);
      watchdog?.kill('SIGKILL');
    },
  };
  if (process.platform === 'win32') return group;
  installExitHook();
  held.set(group, startWatchdog(graceMs));
  return group;
}

/** The groups held now, by pgid (for tests and diagnostics). */
export function heldProcessGroups(): number[] {
  return [...held.keys()].flatMap((group) => (group.pgid === undefined ? [] : [group.pgid]));
}

function startWatchdog(graceMs: number): ChildProcess | undefined {
  try {
    const ticks = Math.max(1, Math.ceil(graceMs / WATCHDOG_TICK_MS));
    const watchdog = spawn('sh', ['-c', WATCHDOG_SCRIPT, 'june-watchdog', String(ticks)], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
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
        if (group.pgid !== undefined) signalProcessGroup(group.pgid, 'SIGKILL');
      } catch {
        // not ours to signal any more (EPERM): nothing else can be done at exit
      }
      watchdog?.kill('SIGKILL');
    }
    held.clear();
  });
}
