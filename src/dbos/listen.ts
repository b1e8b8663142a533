import { pgClient, type PgClient } from './pg-driver.js';

/** A `pg` client's `notification` event. */
interface NotifyingClient {
  on(
    event: 'notification',
    listener: (message: { channel: string; payload?: string }) => void,
  ): unknown;
}

/**
 * Opens a connection of its own to `database` that `LISTEN`s on `channel` and hands each
 * notification's payload to `onPayload`. `onLost` is called once if the connection is lost
 * later (a database restart, a network cut); the connection is ended then. Resolves
 * `undefined`, without calling `onLost`, when it cannot connect (10 s at most) or listen: a
 * listener only spares its owner a poll, so its failures are never errors.
 */
export async function listenOn(
  database: string,
  channel: string,
  onPayload: (payload: string) => void,
  onLost: () => void,
): Promise<PgClient | undefined> {
  let client: PgClient;
  try {
    client = pgClient({ connectionString: database, connectionTimeoutMillis: 10_000 });
  } catch {
    return undefined;
  }
  let connected = false;
  let lost = false;
  client.on('error', () => {
    if (lost) return;
    lost = true;
    void client.end().catch(() => {});
    if (connected) onLost();
  });
  try {
    await client.connect();
    (client as unknown as NotifyingClient).on('notification', (message) => {
      if (message.channel === channel && message.payload) onPayload(message.payload);
    });
    await client.query(`LISTEN ${channel}`);
    connected = true;
    return client;
  } catch {
    lost = true;
    void client.end().catch(() => {});
    return undefined;
  }
}
