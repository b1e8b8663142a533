import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { dbosQueueInternals, QueueWakeups } from './queue-wakeups.js';
import { listenOn } from './listen.js';

/**
 * The DBOS versions (major.minor) June's queue wake-ups were tested on: test/dbos ran on
 * each with them on (test/dbos/queue-wakeups.test.ts shows they work) and with them off
 * (`JUNE_DBOS_WAKEUPS=off`). On any other version a worker polls on DBOS's public settings
 * only, and says so when it starts. Add a version here once the DBOS suite passed on it.
 */
export const WAKEUPS_TESTED_DBOS = ['5.3'] as const;

/** The environment variable that turns the wake-ups off (`off`, `0`, `false`) or on (`on`, `1`, `true`). */
export const WAKEUPS_ENV = 'JUNE_DBOS_WAKEUPS';

/**
 * How a worker learns that there is work: a run enqueued on one of its queues, or a slot of
 * its own freed by a run that ended. June owns this port; DBOS's queue scheduler sits behind
 * it. Made by {@link workerWakeups}; {@link WorkerWakeups.beforeLaunch} before
 * `DBOS.launch()`, {@link WorkerWakeups.afterLaunch} after it, {@link WorkerWakeups.close}
 * once DBOS has shut down.
 */
export interface WorkerWakeups {
  /** `wake-ups`: polled at once when woken, besides the timer; `polling`: the timer alone. */
  readonly mode: 'wake-ups' | 'polling';
  /** Why this mode, in words (after {@link WorkerWakeups.afterLaunch}: also when the wake-ups could not take hold). */
  readonly reason: string;
  /** Called before `DBOS.launch()`. Never throws. */
  beforeLaunch(): Promise<void>;
  /** Called after `DBOS.launch()`, with the database its notices come through. Never throws. */
  afterLaunch(database: string): Promise<void>;
  /** Lets go of whatever it holds (DBOS's scheduler, a listening connection). Never throws. */
  close(): Promise<void>;
}

/**
 * Polling on DBOS's public settings only: each of the worker's queues is polled every
 * `minPollingIntervalMs` (`pollingIntervalMs`, `--polling-interval`), the only way DBOS 5
 * offers. A run enqueued, or a slot freed, waits for the next poll: half an interval on
 * average (25 ms at June's 50).
 */
export class PollingWakeups implements WorkerWakeups {
  readonly mode = 'polling' as const;
  constructor(readonly reason: string) {}
  async beforeLaunch(): Promise<void> {}
  async afterLaunch(): Promise<void> {}
  async close(): Promise<void> {}
}

/**
 * The wake-ups ({@link QueueWakeups}): DBOS's queue scheduler, reached through the package's
 * `internal/*` exports, polls a queue at once when one of this worker's runs of it ends or a
 * June client says it enqueued one there. Falls back to polling (and {@link reason} says so)
 * when this DBOS lacks a shape it relies on.
 */
export class SchedulerWakeups implements WorkerWakeups {
  #mode: 'wake-ups' | 'polling' = 'wake-ups';
  #reason: string;
  readonly #wakeups: QueueWakeups;
  readonly #listen: typeof listenOn;
  #systemDatabase: (() => unknown) | undefined;

  constructor(queues: Iterable<string>, reason: string, listen: typeof listenOn = listenOn) {
    this.#wakeups = new QueueWakeups(queues);
    this.#reason = reason;
    this.#listen = listen;
  }

  get mode() {
    return this.#mode;
  }

  get reason() {
    return this.#reason;
  }

  async beforeLaunch(): Promise<void> {
    const internals = await dbosQueueInternals().catch(() => undefined);
    this.#systemDatabase = internals?.systemDatabase;
    if (!internals || !this.#wakeups.install(internals.queueRunner))
      this.#fallBack("its queue scheduler (internal/wfqueue's wfQueueRunner) has moved");
  }

  async afterLaunch(database: string): Promise<void> {
    if (this.#mode === 'polling') return;
    let systemDatabase: unknown;
    try {
      systemDatabase = this.#systemDatabase?.();
    } catch {
      systemDatabase = undefined;
    }
    if (this.#wakeups.attach(systemDatabase)) this.#wakeups.listen(database, this.#listen);
    else this.#fallBack("its system database's running workflows have moved");
  }

  close(): Promise<void> {
    return this.#wakeups.uninstall();
  }

  #fallBack(why: string): void {
    this.#mode = 'polling';
    this.#reason = `${this.#reason}, but ${why}`;
    void this.#wakeups.uninstall();
  }
}

/** Options of {@link workerWakeups}. */
export interface WakeupChoice {
  /** The worker's DBOS queue names. */
  queues: Iterable<string>;
  /** `false`: polling (`--no-wakeups`); `true` or absent: the wake-ups where tested, unless the environment turns them off. */
  wakeups?: boolean;
  /** @default `process.env` */
  env?: Record<string, string | undefined>;
  /** The installed DBOS's version. @default read from `@dbos-inc/dbos-sdk`'s package.json */
  dbosVersion?: string | undefined;
}

/**
 * The worker's wake-ups: the scheduler's ({@link SchedulerWakeups}) on a DBOS version in
 * {@link WAKEUPS_TESTED_DBOS} unless turned off (`wakeups: false`, `--no-wakeups`, or
 * `JUNE_DBOS_WAKEUPS=off` when the option is not given); else polling
 * ({@link PollingWakeups}). Each says why in its `reason`.
 */
export function workerWakeups(choice: WakeupChoice): WorkerWakeups {
  const env = choice.env ?? process.env;
  const setting = env[WAKEUPS_ENV]?.trim().toLowerCase();
  if (choice.wakeups === false) return new PollingWakeups('the wake-ups are turned off');
  if (choice.wakeups === undefined && setting && ['off', '0', 'false', 'no'].includes(setting))
    return new PollingWakeups(`the wake-ups are turned off (${WAKEUPS_ENV}=${env[WAKEUPS_ENV]})`);
  const version = 'dbosVersion' in choice ? choice.dbosVersion : installedDbosVersion();
  if (version === undefined)
    return new PollingWakeups("the installed DBOS's version could not be read");
  const minor = version.split('.').slice(0, 2).join('.');
  if (!(WAKEUPS_TESTED_DBOS as readonly string[]).includes(minor))
    return new PollingWakeups(
      `DBOS ${version} is not a version June's wake-ups were tested on (${WAKEUPS_TESTED_DBOS.map((v) => `${v}.x`).join(', ')})`,
    );
  return new SchedulerWakeups(choice.queues, `DBOS ${version} is a version they were tested on`);
}

/** The version of the `@dbos-inc/dbos-sdk` June loads, from its package.json; `undefined` when it cannot be read. */
export function installedDbosVersion(): string | undefined {
  try {
    const entry = createRequire(import.meta.url).resolve('@dbos-inc/dbos-sdk');
    for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
      let text: string;
      try {
        text = readFileSync(join(dir, 'package.json'), 'utf8');
      } catch {
        continue;
      }
      const found = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (found.name === '@dbos-inc/dbos-sdk')
        return typeof found.version === 'string' ? found.version : undefined;
    }
  } catch {
    // not installed, or its package.json unreadable
  }
  return undefined;
}

/**
 * The line a worker logs once at start: which way it learns of new runs and why.
 *
 * @example
 * ```ts
 * wakeupsLine('w1', new PollingWakeups('the wake-ups are turned off'), 50);
 * // 'june: worker w1 polls its queues every 50 ms for new runs and freed slots: the wake-ups are turned off'
 * ```
 */
export function wakeupsLine(executorId: string, wakeups: WorkerWakeups, pollingMs: number): string {
  return wakeups.mode === 'wake-ups'
    ? `june: worker ${executorId} polls a queue as soon as a run is enqueued on it or one of its runs ends (wake-ups, besides a poll every ${pollingMs} ms): ${wakeups.reason}; --no-wakeups turns them off`
    : `june: worker ${executorId} polls its queues every ${pollingMs} ms for new runs and freed slots: ${wakeups.reason}`;
}
