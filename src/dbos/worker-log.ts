import type { DLogger } from '@dbos-inc/dbos-sdk';
import { formatDuration } from '../trace/format-duration.js';
import { safeUrl } from './database-error.js';

/** DBOS's log levels, most to least severe. */
const LEVELS = ['error', 'warn', 'info', 'debug'] as const;

/** A log level of DBOS: what a worker prints of DBOS's own log. */
export type WorkerLogLevel = (typeof LEVELS)[number];

/** What says a database connection failed rather than a statement: node's socket errors, the driver's, the server's. */
const CONNECTION_LOST =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|EAI_AGAIN|ENOTFOUND|Connection terminated|terminating connection|server closed the connection|Connection ended unexpectedly|the database system is (?:shutting down|starting up|in recovery mode|not yet accepting connections)|Client has encountered a connection error|timeout exceeded when trying to connect|connection to server .* failed/i;

/** SQLSTATE classes of a connection gone: 08 (connection exception), 57P01-57P03 (shut down). */
const CONNECTION_CODE = /^(?:08...|57P0[1-3])$/;

/** DBOS's own shutdown note about workflows left running: a stopping worker names its runs itself. */
const SHUTDOWN_NOTE = /^Shutting down while \d+ workflows are still running/;

/** How often a worker that lost its database checks whether it is back, in ms. */
const RECONNECT_CHECK_MS = 1000;

/** Options of {@link WorkerLog}. */
export interface WorkerLogOptions {
  /** The worker's executor id, as the lines name it. */
  executorId: string;
  /** The database URL (shown without its password). */
  database: string;
  /** Writes one line (no newline at the end). */
  write: (line: string) => void;
  /** The least severe of DBOS's entries to print. @default 'warn' */
  level?: WorkerLogLevel;
  /**
   * Resolves once the worker's own database connections work again (a query through DBOS's
   * pool); called every second while the database is away.
   */
  probe: () => Promise<unknown>;
  /** A failed run's id, when `error` is the error DBOS stores for one (DBOS logs each). */
  failedRun?: (error: unknown) => string | undefined;
}

/**
 * DBOS's log, as a June worker prints it: one `june:` line per thing a person can act on,
 * never a driver's stack trace.
 *
 * - When the database goes away (a restart, a failover, a network cut), DBOS reports every
 *   failed connection, poll and notification; the worker prints one line saying the
 *   database is gone and that it waits for it, then, once its own connections work again,
 *   one line saying it reconnected and after how long.
 * - A run that failed is one line naming it (its trace and error are in the database).
 * - Anything else DBOS says at `level` or above is one line, its first.
 *
 * It is given to DBOS as its logger (`DBOSConfig.logger`).
 */
export class WorkerLog implements DLogger {
  readonly #options: WorkerLogOptions;
  readonly #level: number;
  /** Since when the database has been away, while it is. */
  #lostAt: number | undefined;
  #closed = false;

  constructor(options: WorkerLogOptions) {
    this.#options = options;
    this.#level = Math.max(0, LEVELS.indexOf(options.level ?? 'warn'));
  }

  /** Stops checking for the database (the worker is stopping); later entries are dropped. */
  close(): void {
    this.#closed = true;
  }

  error(entry: unknown, metadata?: { error?: unknown; stack?: string }): void {
    const failed = this.#options.failedRun?.(metadata?.error);
    if (failed !== undefined && !this.#connectionLost(entry, metadata?.error)) {
      this.#print('error', `run ${failed} failed: ${withoutPrefix(firstLine(entry))}`);
      return;
    }
    this.#entry('error', entry, metadata?.error);
  }

  warn(entry: unknown): void {
    this.#entry('warn', entry, undefined);
  }

  info(entry: unknown): void {
    this.#entry('info', entry, undefined);
  }

  debug(entry: unknown): void {
    this.#entry('debug', entry, undefined);
  }

  #entry(level: WorkerLogLevel, entry: unknown, error: unknown): void {
    if (this.#closed) return;
    const text = firstLine(entry);
    if (SHUTDOWN_NOTE.test(text)) return;
    if (this.#connectionLost(entry, error)) {
      this.#lost(text);
      return;
    }
    this.#print(level, `DBOS: ${text}`);
  }

  #print(level: WorkerLogLevel, message: string): void {
    if (this.#closed || LEVELS.indexOf(level) > this.#level) return;
    this.#options.write(`june: ${message}`);
  }

  #connectionLost(entry: unknown, error: unknown): boolean {
    if (CONNECTION_LOST.test(String(entry))) return true;
    for (let cause = error, depth = 0; cause && depth < 6; depth++) {
      const { code, message } = cause as { code?: unknown; message?: unknown };
      if (typeof code === 'string' && (CONNECTION_CODE.test(code) || CONNECTION_LOST.test(code)))
        return true;
      if (typeof message === 'string' && CONNECTION_LOST.test(message)) return true;
      cause = (cause as { cause?: unknown }).cause;
    }
    return false;
  }

  /** The first sign of a lost database: one line, then a check every second until it is back. */
  #lost(why: string): void {
    if (this.#lostAt !== undefined || this.#closed) return;
    this.#lostAt = Date.now();
    const { executorId, database } = this.#options;
    this.#options.write(
      `june: worker ${executorId} lost the database at ${safeUrl(database)} (${causeOf(why)}); its runs wait, and it reconnects when the database is back`,
    );
    void this.#awaitReconnect();
  }

  async #awaitReconnect(): Promise<void> {
    while (!this.#closed) {
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_CHECK_MS).unref());
      if (this.#closed) return;
      try {
        await this.#options.probe();
      } catch {
        continue;
      }
      if (this.#closed) return;
      const away = formatDuration(Date.now() - this.#lostAt!);
      this.#lostAt = undefined;
      const { executorId, database } = this.#options;
      this.#options.write(
        `june: worker ${executorId} reconnected to the database at ${safeUrl(database)} after ${away}; it takes runs again`,
      );
      return;
    }
  }
}

function firstLine(entry: unknown): string {
  const text =
    typeof entry === 'string' ? entry : entry instanceof Error ? entry.message : String(entry);
  return text.split('\n')[0]!.trim();
}

/**
 * What went wrong in a DBOS line about a lost connection, without what DBOS was doing:
 * `Unexpected error in pool: error: terminating connection due to administrator command`
 * gives `terminating connection due to administrator command`.
 */
function causeOf(text: string): string {
  const at = text.search(CONNECTION_LOST);
  if (at <= 0) return text;
  const start = text.lastIndexOf(': ', at);
  return start === -1 ? text : text.slice(start + 2);
}

/** A message without the `june: ` a June error starts with (the line has its own). */
function withoutPrefix(text: string): string {
  return text.replace(/^june: /, '');
}
