import type { PlacedRow } from '../run/fork-rows.js';
import { WorkflowError } from '../errors/index.js';
import { CALLS_TABLE, decodeValue, encodeValue } from './call-records.js';
import { pooledTransaction, type PgPool } from './pg-driver.js';

/** The rows of the run `runId`, in the order they were stored. */
export async function readRows(pool: PgPool, runId: string): Promise<PlacedRow[]> {
  try {
    const { rows } = await pool.query(
      `SELECT place, record, to_char(stored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS stored_at
         FROM ${CALLS_TABLE} WHERE run_id = $1 ORDER BY stored_at, place`,
      [runId],
    );
    return rows.map((row) => ({
      place: String(row.place),
      record: decodeValue(String(row.record)),
      storedAt: String(row.stored_at),
    }));
  } catch (error) {
    if ((error as { code?: unknown }).code === '42P01') return [];
    throw error;
  }
}

/**
 * Stores `rows` under the run `runId`, in one transaction, each with the time its parent's row
 * was stored (so the fork's rows keep their order, for a fork of the fork).
 * @throws {WorkflowError} `dbos-run-exists` when `runId` has rows already (nothing is stored).
 */
export async function storeRows(
  pool: PgPool,
  runId: string,
  rows: readonly PlacedRow[],
): Promise<void> {
  await pooledTransaction(pool, async (db) => {
    const found = await db.query(`SELECT 1 FROM ${CALLS_TABLE} WHERE run_id = $1 LIMIT 1`, [runId]);
    if (found.rows.length > 0)
      throw new WorkflowError(
        'dbos-run-exists',
        `june: the database already has records of a run ${runId}; a fork takes a new run id.`,
      );
    for (const row of rows)
      await db.query(
        `INSERT INTO ${CALLS_TABLE} (run_id, place, record, stored_at)
           VALUES ($1, $2, $3, $4::timestamptz + $5 * interval '1 microsecond')`,
        [runId, row.place, encodeValue(row.record), row.storedAt, row.after ?? 0],
      );
  });
}
