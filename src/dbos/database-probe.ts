import { databaseError } from './database-error.js';
import { pgClient } from './pg-driver.js';

/**
 * Connects to `database` once and disconnects, failing fast with a clear error (DBOS itself
 * retries a refused connection for a long time): `database-unreachable`,
 * `database-auth-failed`, or, unless `missingIsFine` (a worker's DBOS creates the database
 * on launch), `database-missing`.
 */
export async function probeDatabase(database: string, missingIsFine: boolean): Promise<void> {
  const client = pgClient({ connectionString: database, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    if (missingIsFine && (error as { code?: unknown }).code === '3D000') return;
    throw databaseError(error, database);
  } finally {
    await client.end().catch(() => {});
  }
}
