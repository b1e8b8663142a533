import { createRequire } from 'node:module';

/** The part of a `pg` driver `Client` June uses: connect, query, end, and its `error` event. */
export interface PgClient {
  connect(): Promise<unknown>;
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** What a {@link PgClient} is made from. */
export interface PgClientConfig {
  connectionString: string;
  /** ms to wait for the connection before failing. */
  connectionTimeoutMillis?: number;
  /** ms a query may take before the driver fails it (the server may still run it). */
  query_timeout?: number;
  /** TCP keep-alive on the connection, so a silently cut one is noticed. */
  keepAlive?: boolean;
  /** What the session shows as `pg_stat_activity.application_name` (63 bytes at most). */
  application_name?: string;
}

/**
 * A new client of the PostgreSQL driver DBOS itself uses (`pg`, resolved from
 * `@dbos-inc/dbos-sdk`, so June adds no driver of its own), not yet connected.
 */
export function pgClient(config: PgClientConfig): PgClient {
  const require = createRequire(import.meta.resolve('@dbos-inc/dbos-sdk'));
  const { Client } = require('pg') as { Client: new (config: PgClientConfig) => PgClient };
  return new Client(config);
}

/** The part of a `pg` driver `Pool` June uses: a client of its own for a transaction, and end. */
export interface PgPool {
  connect(): Promise<PgClient & { release(error?: Error | boolean): void }>;
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * A pool of connections of the driver DBOS uses (see {@link pgClient}), opened as needed, at
 * most `max` at once, each closed after `idleTimeoutMillis` ms without use.
 */
export function pgPool(
  config: PgClientConfig & { max?: number; idleTimeoutMillis?: number },
): PgPool {
  const require = createRequire(import.meta.resolve('@dbos-inc/dbos-sdk'));
  const { Pool } = require('pg') as { Pool: new (config: PgClientConfig) => PgPool };
  const pool = new Pool(config);
  pool.on('error', () => {}); // an idle connection lost: the next query opens another
  return pool;
}

/**
 * Runs `work` in one transaction on `db`: `BEGIN`, then `COMMIT`; when `work` throws,
 * `ROLLBACK` (its own failure ignored) and the error again.
 */
export async function inTransaction<T>(
  db: Pick<PgClient, 'query'>,
  work: () => Promise<T>,
): Promise<T> {
  await db.query('BEGIN');
  try {
    const result = await work();
    await db.query('COMMIT');
    return result;
  } catch (error) {
    await db.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/**
 * Runs `work` in one transaction ({@link inTransaction}) on a connection of its own from
 * `pool`, which goes back to the pool afterwards, whatever happened.
 */
export async function pooledTransaction<T>(
  pool: PgPool,
  work: (db: PgClient) => Promise<T>,
): Promise<T> {
  const db = await pool.connect();
  try {
    return await inTransaction(db, () => work(db));
  } finally {
    db.release();
  }
}
