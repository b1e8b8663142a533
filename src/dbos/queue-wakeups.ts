import { listenOn } from './listen.js';
import { QUEUE_NOTICES_CHANNEL } from './names.js';
import type { PgClient } from './pg-driver.js';

/**
 * A worker polls a workflow's queue as soon as one of its runs of that workflow ends, so a
 * queued run takes the freed slot at once instead of at the next poll; as soon as a June
 * client says it enqueued a run there ({@link QUEUE_NOTICES_CHANNEL}), so a run on an idle
 * queue (a chat turn) starts without waiting for a poll; and as soon as it starts, so runs
 * queued while no worker ran do not wait a polling interval more.
 *
 * DBOS (5.x) polls each queue on a timer only: a slot freed just after a poll stays empty for
 * up to the polling interval (36 to 44 ms a run at June's 50 ms, measured in
 * bench/profile-notes.md), about a tenth of a run that waits 400 ms for its model. DBOS has
 * no public call that polls a queue now, so this reaches into its queue scheduler through the
 * package's `internal/*` exports, checking the shapes it relies on and never throwing into
 * DBOS; where one is missing (another DBOS version) it does nothing and the worker polls on
 * its timer as before (test/dbos/queue-wakeups.test.ts then fails). It never polls behind
 * DBOS's back: it moves the queue's next poll to now and wakes DBOS's scheduler, which polls
 * as it would on its timer (one poll of a queue at a time, its lanes, the worker's
 * concurrency budget counted from the runs it holds).
 */

/** A queue's polling state in DBOS's scheduler (`WFQueueRunner.states`). */
interface QueueState {
  queue: { name: string; minPollingIntervalMs?: number; workerConcurrency?: number };
  nextPollAt: number;
  currentPollingMs?: number;
}

/** The parts of DBOS's `wfQueueRunner` this relies on. */
interface QueueRunner {
  states: Map<string, QueueState>;
  runQueuePoll(
    exec: unknown,
    state: QueueState,
    inFlightPolls: Map<string, unknown>,
    wake: () => void,
  ): Promise<void>;
  /** Called on every turn of the scheduler's loop, from its start. */
  scheduleDueQueues?(
    exec: unknown,
    now: number,
    lanes: number,
    inFlightPolls: Map<string, unknown>,
    wake: () => void,
  ): void;
}

/** An execution DBOS counts against its queue's worker concurrency until it is released. */
interface RunningEntry {
  queueName?: string;
  release(): void;
}

/** The part of DBOS's system database that counts a worker's runs. */
interface RunningWorkflows {
  registerRunningWorkflow(
    workflowId: string,
    queueName?: string,
    queuePartitionKey?: string,
  ): RunningEntry;
  countRunningWorkflowsForQueue?(queueName: string): number;
}

/** The scheduler's loop, as captured from the first poll it starts. */
interface Scheduler {
  wake: () => void;
  inFlightPolls: Map<string, unknown>;
}

/** The scheduler's own methods (its class's, never wrappers an earlier worker left). */
interface SchedulerMethods {
  poll: QueueRunner['runQueuePoll'];
  schedule: QueueRunner['scheduleDueQueues'];
}

function ownMethods(value: unknown): SchedulerMethods | undefined {
  const runner = value as Partial<QueueRunner> | undefined;
  if (!(runner?.states instanceof Map)) return undefined;
  const own = Object.getPrototypeOf(runner) as Partial<QueueRunner> | null;
  if (typeof own?.runQueuePoll !== 'function') return undefined;
  const schedule = typeof own.scheduleDueQueues === 'function' ? own.scheduleDueQueues : undefined;
  return { poll: own.runQueuePoll, schedule };
}

function isRunningWorkflows(value: unknown): value is RunningWorkflows {
  return (
    typeof (value as Partial<RunningWorkflows> | undefined)?.registerRunningWorkflow === 'function'
  );
}

/**
 * Polls the named queues when a run of this worker on one of them ends, or a client enqueued
 * one there (see the module's comment). {@link QueueWakeups.install} before `DBOS.launch()`,
 * {@link QueueWakeups.attach} and {@link QueueWakeups.listen} after it,
 * {@link QueueWakeups.uninstall} once DBOS has shut down. Each returns whether it took hold; a
 * `false` leaves the worker polling on its timer.
 */
export class QueueWakeups {
  readonly #queues: ReadonlySet<string>;
  #runner: QueueRunner | undefined;
  #scheduler: Scheduler | undefined;
  /** Queues woken while DBOS polled them (a run ended or was enqueued): polled again after. */
  readonly #dueAfterPoll = new Set<string>();
  #running: RunningWorkflows | undefined;
  #wrappers: Partial<Pick<QueueRunner, 'runQueuePoll' | 'scheduleDueQueues'>> = {};
  /** Queues not polled yet: polled as soon as DBOS's scheduler has their state. */
  readonly #unpolled: Set<string>;
  /** The connection that hears enqueue notices, once it is open. */
  #notices: PgClient | undefined;
  #retry: NodeJS.Timeout | undefined;
  #closed = false;

  /** @param queues - the DBOS queue names whose runs wake their queue (June's `june.run.<workflow>`). */
  constructor(queues: Iterable<string>) {
    this.#queues = new Set(queues);
    this.#unpolled = new Set(this.#queues);
  }

  /**
   * Wraps the scheduler's turn (where it hands over its wake-up, from its loop's start) and
   * its poll of one queue (to poll again a queue woken during a poll), and has each of the
   * worker's queues polled as soon as the scheduler has it, instead of a polling interval
   * later: runs queued while no worker ran start at once. Call before `DBOS.launch()`.
   * @param runner - DBOS's `wfQueueRunner` (`@dbos-inc/dbos-sdk/internal/wfqueue`).
   */
  install(runner: unknown): boolean {
    const methods = ownMethods(runner);
    if (!methods) return false;
    const { poll, schedule } = methods;
    const target = runner as QueueRunner;
    this.#runner = target;
    const learn = (inFlightPolls: unknown, wake: unknown) => {
      if (typeof wake === 'function' && inFlightPolls instanceof Map)
        this.#scheduler = { wake: wake as () => void, inFlightPolls };
    };
    this.#wrappers.runQueuePoll = async (exec, state, inFlightPolls, wake) => {
      learn(inFlightPolls, wake);
      try {
        await poll.call(target, exec, state, inFlightPolls, wake);
      } finally {
        const name = (state as Partial<QueueState> | undefined)?.queue?.name;
        if (name !== undefined && this.#dueAfterPoll.delete(name)) this.#pollSoon(name);
      }
    };
    target.runQueuePoll = this.#wrappers.runQueuePoll;
    if (schedule) {
      this.#wrappers.scheduleDueQueues = (exec, now, lanes, inFlightPolls, wake) => {
        learn(inFlightPolls, wake);
        this.#firstPolls(now);
        schedule.call(target, exec, now, lanes, inFlightPolls, wake);
      };
      target.scheduleDueQueues = this.#wrappers.scheduleDueQueues;
    }
    return true;
  }

  /**
   * Wakes a queue when DBOS stops counting one of its runs against the worker's concurrency
   * (the run's outcome is recorded, or it parks). Call after `DBOS.launch()`.
   * @param systemDatabase - the launched executor's `systemDatabase`
   *   (`DBOSExecutor.globalInstance.systemDatabase`, `@dbos-inc/dbos-sdk/internal/dbos-executor`).
   */
  attach(systemDatabase: unknown): boolean {
    if (!this.#runner || !isRunningWorkflows(systemDatabase)) return false;
    this.#running = systemDatabase;
    const register = systemDatabase.registerRunningWorkflow;
    systemDatabase.registerRunningWorkflow = (workflowId, queueName, queuePartitionKey) => {
      const entry = register.call(systemDatabase, workflowId, queueName, queuePartitionKey);
      if (queueName === undefined || !this.#queues.has(queueName)) return entry;
      const release = entry.release;
      let released = false;
      entry.release = () => {
        release.call(entry);
        if (released) return;
        released = true;
        this.#pollSoon(queueName);
      };
      return entry;
    };
    return true;
  }

  /**
   * Listens for enqueue notices on a connection of its own to `database` and polls the queue
   * each names, when it is one of this worker's and the worker has room for a run of it. A
   * connection that fails or is lost is tried again a second later (each try waits 10 s at
   * most); meanwhile the worker polls on its timer. Call after `DBOS.launch()`.
   * @param open - opens the listening connection ({@link listenOn}; tests give their own).
   */
  listen(database: string, open: typeof listenOn = listenOn): boolean {
    if (!this.#runner || this.#closed) return false;
    const again = () => {
      this.#notices = undefined;
      if (!this.#closed) this.#retry = setTimeout(() => this.listen(database, open), 1000).unref();
    };
    const heard = (queue: string) => {
      if (this.#queues.has(queue)) this.#pollSoon(queue, true);
    };
    void open(database, QUEUE_NOTICES_CHANNEL, heard, again).then((client) => {
      if (!client) again();
      else if (this.#closed) void client.end().catch(() => {});
      else this.#notices = client;
    });
    return true;
  }

  /**
   * Puts DBOS's own poll back and ends the connection that hears enqueue notices (one still
   * opening is ended once open). Never throws.
   */
  async uninstall(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const runner = this.#runner as Partial<QueueRunner> | undefined;
    // a later worker's wrappers stay
    for (const name of ['runQueuePoll', 'scheduleDueQueues'] as const)
      if (runner && Object.hasOwn(runner, name) && runner[name] === this.#wrappers[name])
        delete runner[name];
    this.#runner = undefined;
    this.#scheduler = undefined;
    const client = this.#notices;
    this.#notices = undefined;
    await client?.end().catch(() => {});
  }

  /** Makes the queues not polled yet, whose state the scheduler now has, due at `now`. */
  #firstPolls(now: number): void {
    try {
      for (const name of this.#unpolled) {
        const state = this.#runner?.states.get(name);
        if (!state || typeof state.nextPollAt !== 'number') continue;
        state.nextPollAt = Math.min(state.nextPollAt, now);
        this.#unpolled.delete(name);
      }
    } catch {
      // the worker polls on its timer
    }
  }

  /** True when the worker runs as many runs of `queueName` as its concurrency allows. */
  #full(queueName: string): boolean {
    const limit = this.#runner?.states.get(queueName)?.queue.workerConcurrency;
    const count = this.#running?.countRunningWorkflowsForQueue;
    if (typeof limit !== 'number' || typeof count !== 'function') return false;
    return count.call(this.#running, queueName) >= limit;
  }

  /**
   * Has DBOS poll `queueName` now, or right after its poll in flight; with `unlessFull`, not
   * while the worker has no room for a run of it (a freed slot wakes the queue anyway).
   * Called inside DBOS's release and poll and the driver's notification: a DBOS whose shapes
   * moved must not turn a wake-up into an error there, so nothing here throws.
   */
  #pollSoon(queueName: string, unlessFull = false): void {
    try {
      if (unlessFull && this.#full(queueName)) return;
      // one poll of a queue at a time: that poll may have counted the ended run as running, or
      // missed the new one; poll again after it, which moves the next poll a whole interval away
      if (this.#scheduler?.inFlightPolls.has(queueName)) this.#dueAfterPoll.add(queueName);
      else this.#pollNow(queueName);
    } catch {
      // the worker polls on its timer
    }
  }

  #pollNow(queueName: string): void {
    const state = this.#runner?.states.get(queueName);
    if (!state || !this.#scheduler || typeof state.nextPollAt !== 'number') return;
    // a queue DBOS backs off from (contention) keeps its longer interval
    const min = state.queue.minPollingIntervalMs;
    if (min !== undefined && state.currentPollingMs !== undefined && state.currentPollingMs > min)
      return;
    state.nextPollAt = Math.min(state.nextPollAt, Date.now());
    this.#scheduler.wake();
  }
}

/**
 * DBOS's queue scheduler and a way to its launched executor's system database, from the
 * package's `internal/*` exports; `undefined` parts where this DBOS version has none.
 */
export async function dbosQueueInternals(): Promise<{
  queueRunner: unknown;
  systemDatabase: () => unknown;
}> {
  const [wfqueue, executor] = await Promise.all([
    import('@dbos-inc/dbos-sdk/internal/wfqueue').catch(() => undefined),
    import('@dbos-inc/dbos-sdk/internal/dbos-executor').catch(() => undefined),
  ]);
  return {
    queueRunner: (wfqueue as { wfQueueRunner?: unknown } | undefined)?.wfQueueRunner,
    systemDatabase: () =>
      (executor as { DBOSExecutor?: { globalInstance?: { systemDatabase?: unknown } } } | undefined)
        ?.DBOSExecutor?.globalInstance?.systemDatabase,
  };
}
