import { listenOn } from './listen.js';
import type { PgClient } from './pg-driver.js';

/**
 * The PostgreSQL channel DBOS (5.x) notifies on after a workflow writes to a stream, with the
 * payload `<workflowId>::<key>` (`DBOS_STREAMS_CHANNEL` in DBOS's system database).
 */
export const DBOS_STREAMS_CHANNEL = 'dbos_streams_channel';

/** The part of a `DBOSClient`'s system database whose callbacks wake a waiting `readStream`. */
interface StreamWaiters {
  callCallbacks(key: string): void;
}

/**
 * Where a `DBOSClient` keeps its waiting stream reads (`systemDatabase.streamsMap`), or
 * `undefined` when this DBOS version has none there. A client hears no notification itself:
 * its `readStream` waits for its polling interval or for one of these callbacks, whichever
 * comes first, so calling them only makes a read come sooner.
 */
function streamWaitersOf(client: object): StreamWaiters | undefined {
  const waiters = (client as { systemDatabase?: { streamsMap?: Partial<StreamWaiters> } })
    .systemDatabase?.streamsMap;
  return typeof waiters?.callCallbacks === 'function' ? (waiters as StreamWaiters) : undefined;
}

/**
 * Wakes a `DBOSClient`'s stream reads when a worker writes to their stream: one PostgreSQL
 * connection that `LISTEN`s on the channel DBOS's workers notify after each stream write
 * (coalesced by DBOS, 10 ms by default), so a follower reads a run's new events at once
 * instead of at its next poll ({@link FOLLOW_POLLING_MS}). Polling goes on underneath: a
 * lost connection, a pooler that drops notifications or a DBOS version without the hook only
 * make reads wait for their poll again, never miss a value.
 *
 * The connection is opened on the first {@link StreamWakeups.listen} and ended by
 * {@link StreamWakeups.close}; it hears every stream write in the database (a short payload
 * each) while it is open.
 */
export class StreamWakeups {
  readonly #database: string;
  readonly #waiters: StreamWaiters | undefined;
  #listening: Promise<PgClient | undefined> | undefined;
  #closed = false;

  /** @param client - the `DBOSClient` whose reads to wake. */
  constructor(database: string, client: object) {
    this.#database = database;
    this.#waiters = streamWaitersOf(client);
  }

  /**
   * Starts listening (once; again after a lost connection). Never throws: without a
   * connection, reads keep polling.
   */
  listen(): Promise<void> {
    if (this.#closed || !this.#waiters) return Promise.resolve();
    this.#listening ??= this.#connect();
    return this.#listening.then(() => undefined);
  }

  /** Ends the connection; later calls of {@link listen} do nothing. */
  async close(): Promise<void> {
    this.#closed = true;
    const client = await this.#listening;
    await client?.end().catch(() => {});
  }

  async #connect(): Promise<PgClient | undefined> {
    // a lost connection: the next listen() connects again; reads poll meanwhile
    const forget = () => (this.#listening = undefined);
    const client = await listenOn(
      this.#database,
      DBOS_STREAMS_CHANNEL,
      (payload) => this.#waiters!.callCallbacks(payload),
      forget,
    );
    if (!client) forget();
    else if (this.#closed) await client.end().catch(() => {});
    return client;
  }
}
