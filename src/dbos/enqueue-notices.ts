import { QUEUE_NOTICES_CHANNEL } from './names.js';
import { pgClient, type PgClient } from './pg-driver.js';

/** ms to connect, and then for each notice, before it is given up. */
const NOTICE_TIMEOUT_MS = 2000;
/** ms notices are dropped after a failed connection, before it is tried again. */
const DOWN_MS = 30_000;

/**
 * Tells the workers of a queue that a run was just enqueued on it: a `pg_notify` on
 * {@link QUEUE_NOTICES_CHANNEL} with the queue's name, over one connection of its own opened
 * with the first notice and kept until {@link EnqueueNotices.close}. Notices go out one after
 * the other behind the enqueues, never in their way, and a queue's notice still waiting to go
 * out stands for later enqueues on it too. A notice that cannot be sent (no connection within
 * 2 s, no answer within 2 s, a pooler in transaction mode that drops notifications) is
 * dropped, and the run starts at a worker's next poll as it would without it; after a failed
 * connection, notices are dropped for 30 s before it is tried again. Nothing here throws.
 */
export class EnqueueNotices {
  readonly #database: string;
  #connection: Promise<PgClient | undefined> | undefined;
  /** The connection while it is open, so a late error of an older one leaves it alone. */
  #current: PgClient | undefined;
  #sent: Promise<void> = Promise.resolve();
  /** Queues whose notice waits to go out. */
  readonly #waiting = new Set<string>();
  #closed = false;
  /** Until when (epoch ms) notices are dropped after a failed connection. */
  #downUntil = 0;

  constructor(database: string) {
    this.#database = database;
  }

  /** Queues a notice for `queue` (a DBOS queue name); returns at once. */
  notify(queue: string): void {
    if (this.#closed || this.#waiting.has(queue)) return;
    this.#waiting.add(queue);
    this.#sent = this.#sent
      .then(() => {
        this.#waiting.delete(queue);
        return this.#send(queue);
      })
      .catch(() => {});
  }

  /**
   * Sends the notices queued so far (each given up after 2 s at most), then ends the
   * connection. Never throws.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#sent;
    const client = await this.#connection;
    await client?.end().catch(() => {});
  }

  async #send(queue: string): Promise<void> {
    if (Date.now() < this.#downUntil) return;
    this.#connection ??= this.#connect();
    const client = await this.#connection;
    if (!client) {
      this.#connection = undefined;
      return;
    }
    await client
      .query('SELECT pg_notify($1, $2)', [QUEUE_NOTICES_CHANNEL, queue])
      .catch(() => this.#forget(client));
  }

  async #connect(): Promise<PgClient | undefined> {
    let client: PgClient | undefined;
    try {
      client = pgClient({
        connectionString: this.#database,
        connectionTimeoutMillis: NOTICE_TIMEOUT_MS,
        query_timeout: NOTICE_TIMEOUT_MS,
        keepAlive: true,
      });
      const opened = client;
      opened.on('error', () => this.#forget(opened));
      await opened.connect();
      this.#current = opened;
      return opened;
    } catch {
      if (client) this.#forget(client);
      this.#downUntil = Date.now() + DOWN_MS;
      return undefined;
    }
  }

  /** Ends a failed connection; when it is the current one, the next notice connects again. */
  #forget(client: PgClient): void {
    if (this.#current === client) {
      this.#current = undefined;
      this.#connection = undefined;
    }
    void client.end().catch(() => {});
  }
}
