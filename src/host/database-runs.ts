import type { RunClient, DbosRunSummary } from '../dbos/index.js';
import { applyEvent, liveTrace, type LiveTrace } from '../events/index.js';
import type { Trace, TraceStatus } from '../trace/trace-node.js';
import type { TraceLookup } from './run-directory.js';
import type { RunListEntry, RunSummary, StudioEvent } from './run-list.js';
import { summarizeTrace } from './summarize-trace.js';
import { cancelledTrace } from './cancelled-trace.js';

/** Options of {@link DatabaseRuns.open}. */
export interface DatabaseRunsOptions {
  /** The PostgreSQL URL of the runs (`june worker --database`). */
  database: string;
  /** How often to read the list of runs, in ms. @default 1000 */
  pollIntervalMs?: number;
  /** How many of the newest runs to list. @default 100 */
  limit?: number;
  /** Called for each change found: a run that appeared or changed. */
  onChange?: (event: StudioEvent) => void;
}

interface Follow {
  live: LiveTrace;
  /** Resolves once the first events came (or soon, for a run that has none yet). */
  ready: Promise<void>;
  updatedAt: string;
}

const FIRST_EVENTS_MS = 1500;
const EMIT_DEBOUNCE_MS = 150;

/**
 * Studio's view of a database of runs (`june studio --database <url>`), through DBOS's
 * `RunClient`: the list of runs, read again every `pollIntervalMs` (a run's status and its
 * waiting approvals change while the page is open), and the trace of each run the page
 * opens, built from the events its worker publishes (`RunClient.events`) as they come.
 *
 * @example
 * ```ts
 * const runs = await DatabaseRuns.open({ database: 'postgres://localhost/june', onChange: console.log });
 * await runs.start();
 * console.log(await runs.list());
 * runs.close();
 * ```
 */
export class DatabaseRuns {
  /** The connection, for answering approvals. */
  readonly client: RunClient;
  readonly #options: DatabaseRunsOptions;
  readonly #entries = new Map<string, RunSummary>();
  readonly #summaries = new Map<string, DbosRunSummary>();
  readonly #follows = new Map<string, Follow>();
  readonly #emits = new Map<string, NodeJS.Timeout>();
  #poll: NodeJS.Timeout | undefined;
  #closed = false;
  #ownsClient = true;

  private constructor(client: RunClient, options: DatabaseRunsOptions) {
    this.client = client;
    this.#options = options;
  }

  /**
   * Connects to the database.
   * @throws {SystemError} `dbos-missing` without `@dbos-inc/dbos-sdk`; `database-unreachable`,
   *   `database-auth-failed` for a database it cannot use.
   */
  static async open(options: DatabaseRunsOptions): Promise<DatabaseRuns> {
    const { RunClient } = await import('../dbos/index.js');
    return new DatabaseRuns(await RunClient.connect(options.database), options);
  }

  /**
   * Over a connection the caller opened, and closes: {@link close} leaves it open.
   * `options.database` is then only its label.
   */
  static over(client: RunClient, options: DatabaseRunsOptions): DatabaseRuns {
    const runs = new DatabaseRuns(client, options);
    runs.#ownsClient = false;
    return runs;
  }

  /** Reads the list once, then every `pollIntervalMs`. */
  async start(): Promise<void> {
    await this.#refresh();
    this.#poll = setInterval(
      () => void this.#refresh().catch(() => {}),
      this.#options.pollIntervalMs ?? 1000,
    );
    this.#poll.unref();
  }

  /** The runs, newest first. */
  async list(): Promise<RunListEntry[]> {
    await this.#refresh();
    return [...this.#entries.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  }

  /** The run's trace as its events built it so far; starts following the run. */
  async readTrace(runId: string): Promise<TraceLookup> {
    if (!this.#entries.has(runId)) await this.#refresh();
    // one older than the newest `limit` the list reads is asked for by its id
    if (!this.#entries.has(runId)) await this.#lookUp(runId);
    if (!this.#entries.has(runId)) return { missing: true };
    const follow = this.#follow(runId);
    await follow.ready;
    const trace = follow.live.trace;
    if (!trace) return { unreadable: 'the run has not started yet: it waits in its queue' };
    if (trace.endedAt !== undefined) return { text: JSON.stringify(trace) };
    // a run the database cancelled writes no more events: its end is the database's
    const run = await this.client.get(runId).catch(() => this.#summaries.get(runId));
    if (run) this.#summaries.set(runId, run);
    return { text: JSON.stringify(run ? shownTrace(run, follow)! : trace) };
  }

  /** The run as the database last listed it (its waiting approvals included). */
  summary(runId: string): DbosRunSummary | undefined {
    return this.#summaries.get(runId);
  }

  /** The trace of a run the page opened, as built so far. */
  trace(runId: string) {
    return this.#follows.get(runId)?.live.trace;
  }

  /** Stops polling and following, and closes the connection (one it opened). */
  close(): void {
    this.#closed = true;
    clearInterval(this.#poll);
    for (const timer of this.#emits.values()) clearTimeout(timer);
    if (this.#ownsClient) void this.client.close().catch(() => {});
  }

  async #refresh(): Promise<void> {
    if (this.#closed) return;
    const runs = await this.client.list({ limit: this.#options.limit ?? 100 });
    for (const run of runs) {
      this.#summaries.set(run.runId, run);
      this.#update(run.runId);
    }
  }

  /** Reads one run the list did not have, by its id; nothing when the database has none. */
  async #lookUp(runId: string): Promise<void> {
    if (this.#closed) return;
    const run = await this.client.get(runId).catch(() => undefined);
    if (!run) return;
    this.#summaries.set(runId, run);
    this.#update(runId);
  }

  /** Makes the run's entry again from the list and its trace; tells the pages when it changed. */
  #update(runId: string): void {
    const run = this.#summaries.get(runId);
    if (!run) return;
    const follow = this.#follows.get(runId);
    const entry = entryOf(run, follow);
    const before = this.#entries.get(runId);
    if (before && JSON.stringify(before) === JSON.stringify(entry)) return;
    this.#entries.set(runId, entry);
    this.#options.onChange?.({ type: 'run', run: entry });
  }

  #follow(runId: string): Follow {
    const known = this.#follows.get(runId);
    if (known) return known;
    let first: () => void = () => {};
    const follow: Follow = {
      live: liveTrace(),
      ready: new Promise<void>((resolve) => {
        first = resolve;
        setTimeout(resolve, FIRST_EVENTS_MS).unref();
      }),
      updatedAt: new Date().toISOString(),
    };
    this.#follows.set(runId, follow);
    void (async () => {
      try {
        for await (const event of this.client.events(runId)) {
          if (this.#closed) return;
          applyEvent(follow.live, event);
          follow.updatedAt = new Date().toISOString();
          first();
          this.#scheduleUpdate(runId);
        }
      } catch {
        // the run went away or the database did: the list says what is known
      } finally {
        first();
      }
    })();
    return follow;
  }

  #scheduleUpdate(runId: string): void {
    if (this.#emits.has(runId) || this.#closed) return;
    const timer = setTimeout(() => {
      this.#emits.delete(runId);
      this.#update(runId);
    }, EMIT_DEBOUNCE_MS);
    timer.unref();
    this.#emits.set(runId, timer);
  }
}

/** A database run as Studio's list shows it: its trace's summary once followed, the database's status and approvals. */
function entryOf(run: DbosRunSummary, follow: Follow | undefined): RunSummary {
  const createdAt = new Date(run.createdAt).toISOString();
  const trace = follow && shownTrace(run, follow);
  const base: RunSummary = trace
    ? summarizeTrace(trace, run.runId, follow!.updatedAt)
    : {
        runId: run.runId,
        file: run.runId,
        status: 'running',
        startedAt: createdAt,
        nodeCount: 0,
        updatedAt: createdAt,
      };
  return {
    ...base,
    runId: run.runId,
    file: run.runId,
    workflow: run.workflow,
    ...(run.worker !== undefined ? { worker: run.worker } : {}),
    ...(run.error !== undefined ? { error: run.error } : {}),
    ...(run.thread !== undefined ? { thread: run.thread } : {}),
    // a run the page follows is in the state its trace shows (the page reads the same one)
    ...(trace
      ? {}
      : {
          status: run.waiting.length > 0 ? 'waiting' : statusOf(run.status),
          ...(run.waiting.length > 0 ? { pendingApprovals: run.waiting.length } : {}),
        }),
  };
}

/**
 * The trace of a followed run as far as its events built it; for a run the database
 * cancelled, ended `aborted` as of its last event ({@link cancelledTrace}).
 */
function shownTrace(run: DbosRunSummary, follow: Follow): Trace | undefined {
  const trace = follow.live.trace;
  if (!trace || run.status !== 'cancelled') return trace;
  return cancelledTrace(trace, Date.parse(follow.updatedAt));
}

function statusOf(status: DbosRunSummary['status']): TraceStatus {
  if (status === 'queued') return 'running';
  if (status === 'cancelled') return 'aborted';
  return status;
}

/** The database URL without its password, for the page's header. */
export function databaseLabel(database: string): string {
  try {
    const url = new URL(database);
    if (url.password) url.password = '****';
    return url.toString();
  } catch {
    return 'the database';
  }
}
