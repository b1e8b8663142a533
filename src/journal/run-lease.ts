import { hostname } from 'node:os';
import { JuneError, RunAbortedError, SystemError } from '../errors/june-error.js';

/**
 * Who runs a run: the process that holds its lease. `pid` is the process id on `hostname`
 * (the machine's host name, `os.hostname()`), `startedAt` when it took the run (ISO 8601).
 *
 * @example
 * ```ts
 * const owner: RunOwner = { pid: 48211, hostname: 'build-7', startedAt: '2026-11-30T12:03:01.000Z' };
 * ```
 */
export interface RunOwner {
  pid: number;
  hostname: string;
  startedAt: string;
}

/**
 * One hold on a run (see {@link JournalStore.lease}): while it is held, no other process or
 * run takes the run up. `release()` lets go (idempotent; the next one may take it at once).
 */
export interface RunLease {
  /** The run held. */
  readonly runId: string;
  /** This process, as others see it while it holds the run. */
  readonly owner: RunOwner;
  /** Lets go of the run; resolves once another may take it. Safe to call more than once. */
  release(): Promise<void>;
}

/** How {@link JournalStore.lease} takes a run another owner holds. */
export interface RunLeaseOptions {
  /**
   * Wait until the owner lets go (it ends, or it is found gone) instead of failing with
   * `run-owned`. @default false
   */
  wait?: boolean;
  /** Stops waiting: the lease then rejects with the signal's reason (or `run-aborted`). */
  signal?: AbortSignal;
  /**
   * Called once, when the run turned out to be held and the lease waits for it; for a
   * thread's hold, with the run that holds the thread (`holder`), when its lease names it.
   */
  onWait?(owner: RunOwner, holder?: string): void;
  /** How often a waiting lease looks again, in ms. @default 100 */
  pollMs?: number;
}

/**
 * This process as a run's owner from now on.
 *
 * @example
 * ```ts
 * thisProcessOwner(); // { pid: 48211, hostname: 'build-7', startedAt: '2026-11-30T12:03:01.000Z' }
 * ```
 */
export function thisProcessOwner(): RunOwner {
  return { pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString() };
}

/**
 * The error of a lease taken on a run that another owner holds (code `run-owned`): it names
 * the owner (process, host, since when) and says what to do, and carries it as `owner`
 * ({@link ownerOfError}). `where`, when given, names the lease itself (a file), for an owner
 * on another machine that is gone.
 *
 * @example
 * ```ts
 * throw runOwned('20261130-120301-3fa94c1e27b0', owner);
 * ```
 */
export function runOwned(runId: string, owner: RunOwner, where?: string): SystemError {
  const gone =
    where && owner.hostname !== hostname()
      ? ` If that process is gone, its lease lapses a minute after its last sign of life; or remove ${where}.`
      : '';
  const error = new SystemError(
    'run-owned',
    `june: run ${runId} is already being run by ${ownerText(owner)}; a run has one owner at a time. Wait for that process to end (june run --wait-for-owner, or run(..., { waitForOwner: true })), or stop it first.${gone}`,
  );
  return Object.assign(error, { owner });
}

/**
 * The owner a `run-owned` error names (see {@link runOwned}), or undefined for any other error.
 *
 * @example
 * ```ts
 * const owner = ownerOfError(error); // { pid, hostname, startedAt }
 * ```
 */
export function ownerOfError(error: unknown): RunOwner | undefined {
  if (!JuneError.isInstance(error) || error.code !== 'run-owned') return undefined;
  return (error as { owner?: RunOwner }).owner;
}

/**
 * An owner in words: `process 48211 on host build-7 (this machine) since
 * 2026-11-30T12:03:01.000Z`.
 */
export function ownerText(owner: RunOwner): string {
  const here = owner.hostname === hostname() ? ' (this machine)' : '';
  return `process ${owner.pid} on host ${owner.hostname}${here} since ${owner.startedAt}`;
}

/** A try at taking a run: the lease, or the owner that holds the run now. */
export type LeaseAttempt = { lease: RunLease } | { owner: RunOwner };

/**
 * Takes a run through `attempt` (one try each), failing with `run-owned` when it is held, or,
 * with `options.wait`, trying again every `pollMs` until it is free or the signal aborts.
 *
 * @throws {SystemError} `run-owned` (from `fail(owner)`) when the run is held and `wait` is off.
 * @throws {RunAbortedError} (or the signal's own reason) when `options.signal` aborts first.
 */
export async function takeLease(
  attempt: () => Promise<LeaseAttempt>,
  fail: (owner: RunOwner) => Error,
  options: RunLeaseOptions = {},
): Promise<RunLease> {
  let told = false;
  for (;;) {
    if (options.signal?.aborted) throw abortReason(options.signal);
    const tried = await attempt();
    if ('lease' in tried) {
      if (!options.signal?.aborted) return tried.lease;
      await tried.lease.release();
      throw abortReason(options.signal);
    }
    if (!options.wait) throw fail(tried.owner);
    if (!told) options.onWait?.(tried.owner);
    told = true;
    await pause(options.pollMs ?? 100, options.signal);
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : new RunAbortedError(signal.reason);
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
