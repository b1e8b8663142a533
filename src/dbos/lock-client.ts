import { databaseError } from './database-error.js';
import { pgClient, type PgClient } from './pg-driver.js';

/** SQLSTATEs that say the maintenance database cannot be used with these credentials. */
const CANNOT_USE = new Set(['3D000', '28000', '28P01', '42501']);

/**
 * A connected client to hold June's session advisory locks for `database` in: the server's
 * `postgres` database (where DBOS itself goes to create a new database, so a lock there
 * exists before the database does), else `database` itself when these credentials may not
 * use that one; `undefined` when neither can be used yet (a new database and no right to
 * the server's). Workers that share a database share its credentials, so they all lock in
 * the same place. A lost connection fails the next query instead of throwing an `error`
 * event; a caller that keeps the client listens for `error` itself.
 *
 * @param applicationName what `pg_stat_activity.application_name` shows for the session (63
 *   bytes at most; PostgreSQL cuts a longer one).
 * @throws {SystemError} `database-unreachable`, `database-auth-failed` when the server cannot
 *   be used at all.
 */
export async function lockClient(
  database: string,
  applicationName?: string,
): Promise<PgClient | undefined> {
  const maintenance = new URL(database);
  maintenance.pathname = '/postgres';
  for (const url of [maintenance.toString(), database]) {
    const client = pgClient({
      connectionString: url,
      connectionTimeoutMillis: 10_000,
      keepAlive: true,
      ...(applicationName !== undefined ? { application_name: applicationName } : {}),
    });
    client.on('error', () => {}); // a connection lost while locking fails the query instead
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      if (!CANNOT_USE.has(String((error as { code?: unknown }).code)))
        throw databaseError(error, database);
    }
  }
  return undefined;
}

/** The name of the database a PostgreSQL URL points at (`june` for `postgresql://h/june`). */
export function databaseName(database: string): string {
  return decodeURIComponent(new URL(database).pathname.replace(/^\//, ''));
}
