import { SystemError } from '../errors/index.js';
import { databaseError } from './database-error.js';
import { pgClient } from './pg-driver.js';

/**
 * Connects to `database` once and disconnects, failing fast with a clear error (DBOS itself
 * retries a refused connection for a long time): `database-url-invalid` for a value that is
 * not a `postgresql://` (or `postgres://`) URL (the driver would read `localhost/june` as a
 * host named "base"), `database-unreachable`, `database-auth-failed`, or, unless
 * `missingIsFine` (a worker's DBOS creates the database on launch), `database-missing`.
 */
export async function probeDatabase(database: string, missingIsFine: boolean): Promise<void> {
  if (!/^postgres(ql)?:\/\//i.test(database))
    throw new SystemError(
      'database-url-invalid',
      'june: --database takes a PostgreSQL URL that starts with postgresql:// (postgresql://user:password@host:5432/database); the one given does not. Write it as postgresql://localhost:5432/june, with your user, password, host and database.',
    );
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
