import { taggedJson, untagBytes } from '../json/tagged-json.js';
import { pgPool, type PgClient, type PgPool, inTransaction } from './pg-driver.js';

/** June's table of the finished model calls and tool executions of runs over the database. */
export const CALLS_TABLE = 'june.calls';

/** PostgreSQL's code for a table (or schema) that does not exist. */
const UNDEFINED_TABLE = '42P01';
const UNDEFINED_SCHEMA = '3F000';

/**
 * Creates {@link CALLS_TABLE} (and its schema, `june`) unless it exists: idempotent, and safe
 * from any number of processes at once (under a transaction-scoped advisory lock).
 *
 * Columns: `run_id`, `place` (the call's place key, see {@link callKey}), `record` (what the
 * call gave, as June encodes a journal record), `stored_at`. The key is `(run_id, place)`.
 */
export async function createCallsTable(db: Pick<PgClient, 'query'>): Promise<void> {
  const found = await db.query('SELECT to_regclass($1) IS NOT NULL AS present', [CALLS_TABLE]);
  if (found.rows[0]?.present === true) return;
  await inTransaction(db, async () => {
    await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [CALLS_TABLE]);
    await db.query('CREATE SCHEMA IF NOT EXISTS june');
    await db.query(`CREATE TABLE IF NOT EXISTS ${CALLS_TABLE} (
      run_id text NOT NULL,
      place text NOT NULL,
      record text NOT NULL,
      stored_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (run_id, place)
    )`);
  });
}

/**
 * The records of one run, by place key: read once when the run (or its recovery) starts,
 * then written one by one as its calls finish.
 */
export interface RunCallRecords {
  /** The record stored under `key`, or `undefined`. */
  get(key: string): unknown;
  /**
   * Stores `record` under `key` unless a record is stored there already; resolves with the
   * record that stands (the first one stored), once it is stored.
   */
  store(key: string, record: unknown): Promise<unknown>;
}

/**
 * The place table of runs over the database ({@link CALLS_TABLE}): the mechanism that maps a
 * place in the run to its record. DBOS numbers a workflow's steps in the order they start, so
 * work that may start in another order after a recovery (several tools of one turn, child
 * runs of composite calls running at once) cannot be DBOS steps: a recovered run would reach
 * step N with another call than the one recorded there. Each finished model call and tool
 * execution is a row keyed by the run's id and the call's place instead (its step path,
 * composite calls, and model call index or tool call id: `model <place>#<index>`,
 * `tool <place>|<call id>`), whatever order it started in. A recovered run reads its rows
 * once and answers each call from its own row. The first record stored for a place stands
 * (a primary key and `INSERT ... ON CONFLICT DO NOTHING`), so two processes that ran the
 * same call (one of them a zombie) keep one outcome.
 *
 * Connections come from a small pool of its own, opened on first use; the table is made on
 * first write when the worker could not make it at launch.
 */
export class CallRecords {
  readonly #database: string;
  readonly #poolSize: number;
  #pool: PgPool | undefined;
  #ready: Promise<void> | undefined;

  /** @param poolSize - connections at most (each run in flight stores a record per call). @default 8 */
  constructor(database: string, poolSize = 8) {
    this.#database = database;
    this.#poolSize = poolSize;
  }

  /**
   * The records of the run `runId`, read now. `legacy` is true for a run an older June
   * started, whose calls are DBOS steps (named `june.model ...` and `june.tool ...`) and
   * which has no rows here: it goes on with DBOS steps, as it was recorded.
   */
  async forRun(runId: string): Promise<{ records: RunCallRecords; legacy: boolean }> {
    const found = new Map<string, unknown>();
    const pool = this.#connections();
    let legacy: boolean | undefined;
    try {
      // one round trip: the run's rows, or (none) whether DBOS holds its calls as steps
      const { rows } = await pool.query(
        `SELECT place, record FROM ${CALLS_TABLE} WHERE run_id = $1
         UNION ALL
         SELECT NULL, NULL WHERE NOT EXISTS (SELECT 1 FROM ${CALLS_TABLE} WHERE run_id = $1)
           AND EXISTS (SELECT 1 FROM dbos.operation_outputs WHERE workflow_uuid = $1
             AND (function_name LIKE 'june.model %' OR function_name LIKE 'june.tool %'))`,
        [runId],
      );
      for (const row of rows)
        if (row.place === null) legacy = true;
        else found.set(String(row.place), decodeValue(String(row.record)));
      legacy ??= false;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== UNDEFINED_TABLE && code !== UNDEFINED_SCHEMA) throw error;
    }
    // June's table or DBOS's is missing: each looked up on its own
    legacy ??= found.size === 0 && (await this.#dbosSteps(runId));
    const records: RunCallRecords = {
      get: (key) => found.get(key),
      store: async (key, record) => {
        const standing = await this.#store(runId, key, record);
        found.set(key, standing);
        return standing;
      },
    };
    return { records, legacy };
  }

  /** Closes the connections. */
  async close(): Promise<void> {
    await this.#pool?.end().catch(() => {});
  }

  /** Whether the run has model calls or tool executions recorded as DBOS steps (an older June's run). */
  async #dbosSteps(runId: string): Promise<boolean> {
    try {
      const { rows } = await this.#connections().query(
        `SELECT EXISTS (SELECT 1 FROM dbos.operation_outputs WHERE workflow_uuid = $1
           AND (function_name LIKE 'june.model %' OR function_name LIKE 'june.tool %')) AS steps`,
        [runId],
      );
      return rows[0]?.steps === true;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === UNDEFINED_TABLE || code === UNDEFINED_SCHEMA) return false;
      throw error;
    }
  }

  async #store(runId: string, key: string, record: unknown): Promise<unknown> {
    const pool = this.#connections();
    this.#ready ??= pool.connect().then(async (db) => {
      try {
        await createCallsTable(db);
      } finally {
        db.release();
      }
    });
    await this.#ready.catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    const { rows } = await pool.query(
      `WITH stored AS (
         INSERT INTO ${CALLS_TABLE} (run_id, place, record) VALUES ($1, $2, $3)
         ON CONFLICT (run_id, place) DO NOTHING RETURNING record
       )
       SELECT record FROM stored
       UNION ALL SELECT record FROM ${CALLS_TABLE} WHERE run_id = $1 AND place = $2
       LIMIT 1`,
      [runId, key, encodeValue(record)],
    );
    const text = rows[0]?.record;
    return typeof text === 'string' ? decodeValue(text) : record;
  }

  #connections(): PgPool {
    return (this.#pool ??= pgPool({
      connectionString: this.#database,
      connectionTimeoutMillis: 10_000,
      max: this.#poolSize,
      idleTimeoutMillis: 10_000,
    }));
  }
}

/**
 * A record as text: what plain JSON cannot hold tagged as a journal line tags it (bytes as
 * `{"$bytes": base64}`, a BigInt as its decimal string, a `Date` as `{"$date": iso}`).
 */
export function encodeValue(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, given: unknown) {
    const raw = this[key];
    if (raw instanceof Date)
      return { $date: Number.isNaN(raw.getTime()) ? null : raw.toISOString() };
    return taggedJson(raw, given);
  });
}

/** A record {@link encodeValue} wrote, its bytes and dates given back. */
export function decodeValue(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const date = (value as { $date?: unknown }).$date;
    if (Object.keys(value).length === 1 && (typeof date === 'string' || date === null))
      return new Date(date === null ? Number.NaN : date);
    return untagBytes(value) ?? value;
  });
}
