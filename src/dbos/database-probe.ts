import { createRequire } from 'node:module';
import { databaseError } from './database-error.js';

/** The part of the `pg` driver's `Client` the probe uses. */
type PgClient = new (config: { connectionString: string; connectionTimeoutMillis: number }) => {
  connect(): Promise<unknown>;
  end(): Promise<unknown>;
};

/**
 * Connects to `database` once and disconnects, failing fast with a clear error (DBOS itself
 * retries a refused connection for a long time): `database-unreachable`,
 * `database-auth-failed`, or, unless `missingIsFine` (a worker's DBOS creates the database
 * on launch), `database-missing`.
 */
export async function probeDatabase(database: string, missingIsFine: boolean): Promise<void> {
  // the PostgreSQL driver DBOS itself uses
  const require = createRequire(import.meta.resolve('@dbos-inc/dbos-sdk'));
  const { Client } = require('pg') as { Client: PgClient };
  const client = new Client({ connectionString: database, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    if (missingIsFine && (error as { code?: unknown }).code === '3D000') return;
    throw databaseError(error, database);
  } finally {
    await client.end().catch(() => {});
  }
}
