import { databaseName, lockClient } from './lock-client.js';

/**
 * Runs `work` (a worker's DBOS launch: creating the database, migrating its schema,
 * registering queues) while holding June's set-up lock for `database`, so workers started
 * at once (by an orchestrator, after a deploy) set up a new database one after the other
 * instead of racing in DBOS's schema migration (`tuple concurrently updated`, `deadlock
 * detected`, a duplicate `CREATE DATABASE`). The lock is a PostgreSQL session advisory lock
 * named after the database; the server lets go of it when `work` settles, or when the
 * process holding it dies.
 *
 * It is taken in the server's `postgres` database (where DBOS itself goes to create a new
 * database), so it exists before the database does; with credentials that may not use that
 * one, in `database` itself. `onWait` is called once, before waiting, when another process
 * holds the lock.
 *
 * @throws {SystemError} `database-unreachable`, `database-auth-failed` when the server cannot
 *   be used at all; whatever `work` throws.
 * @example
 * ```ts
 * await withSetupLock(url, () => DBOS.launch(), () => log('waiting for another worker'));
 * ```
 */
export async function withSetupLock<T>(
  database: string,
  work: () => Promise<T>,
  onWait: () => void,
): Promise<T> {
  const client = await lockClient(database);
  if (!client) return work(); // no database to lock in yet, nor a right to the server's: DBOS says why
  try {
    const key = `june.dbos-setup:${databaseName(database)}`;
    const tried = await client.query('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [key]);
    if (tried.rows[0]?.locked !== true) {
      onWait();
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
    }
    return await work();
  } finally {
    // ending the session releases the lock
    await client.end().catch(() => {});
  }
}
