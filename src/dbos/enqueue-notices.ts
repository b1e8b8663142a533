import { QUEUE_NOTICES_CHANNEL } from './names.js';
import { pgClient, type PgClient } from './pg-driver.js';

/**
 * Tells the workers of a queue that a run was just enqueued on it: a `pg_notify` on
 * {@link QUEUE_NOTICES_CHANNEL} with the queue's name, over one connection of its own opened
 * with the first notice and kept until {@link EnqueueNotices.close}. Notices go out one after
 * the other behind the enqueues, never in their way: a notice that cannot be sent (no
 * connection within 2 s, a pooler in transaction mode that drops notifications) is dropped,
 * and the run starts at a worker's next poll as it would without it. After a failed
 * connection, notices are dropped for 30 s before it is tried again.
 */
export class EnqueueNotices {
  readonly #database: string;
  #connection: Promise<PgClient | undefined> | undefined;
  #sent: Promise<void> = Promise.resolve();
  #closed = false;
  /** Until when (epoch ms) notices are dropped after a failed connection. */
  #downUntil = 0;

  constructor(database: string) {
    this.#database = database;
  }

  /** Queues a notice for `queue` (a DBOS queue name); resolves at once. */
  notify(queue: string): void {
    if (this.#closed) return;
    this.#sent = this.#sent.then(() => this.#send(queue));
  }

  /** Sends the notices queued so far, then ends the connection. */
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
    await client
      ?.query('SELECT pg_notify($1, $2)', [QUEUE_NOTICES_CHANNEL, queue])
      .catch(() => this.#forget(client));
  }

  async #connect(): Promise<PgClient | undefined> {
    const client = pgClient({ connectionString: this.#database, connectionTimeoutMillis: 2000 });
    client.on('error', () => this.#forget(client));
    try {
      await client.connect();
      return client;
    } catch {
      this.#forget(client);
      this.#downUntil = Date.now() + 30_000;
      return undefined;
    }
  }

  /** Drops a failed connection: the next notice connects again. */
  #forget(client: PgClient): void {
    this.#connection = undefined;
    void client.end().catch(() => {});
  }
}
