import { SystemError, WorkflowError } from '../errors/june-error.js';
import type { ThreadHistory, ThreadRun } from '../engine/thread-id.js';
import { decodeValue, encodeValue } from './call-records.js';
import {
  pgPool,
  pooledTransaction,
  type PgClient,
  type PgPool,
  inTransaction,
} from './pg-driver.js';

/** June's table of the runs of threads over the database, in order, with their conversations. */
export const THREADS_TABLE = 'june.threads';

/** PostgreSQL's code for a table (or schema) that does not exist. */
const UNDEFINED_TABLE = '42P01';
const UNDEFINED_SCHEMA = '3F000';
/** PostgreSQL's code for a unique constraint violated. */
const UNIQUE_VIOLATION = '23505';

/** DBOS statuses of a run that still holds its thread: queued, or running (or waiting to be recovered). */
const HOLDING = new Set(['ENQUEUED', 'PENDING', 'DELAYED']);

/**
 * How long a hold whose run DBOS does not have (yet) stands, in ms: the run is stored right
 * after its hold is taken, so a hold older than this without a run is one whose enqueue failed
 * in a process that died before it let go.
 */
const UNSTORED_HOLD_MS = 60_000;

/**
 * Creates {@link THREADS_TABLE} (and its schema, `june`) unless it exists: idempotent, and safe
 * from any number of processes at once (under a transaction-scoped advisory lock).
 *
 * Columns: `thread_id`, `run_order` (1 for the thread's first run), `run_id` (unique),
 * `agent` and `conversation` (the thread agent's name and its whole conversation when it
 * finished, as JSON; null until then, and for a run that left none), `running` (the run holds
 * the thread: at most one row per thread, a partial unique index), `created_at`.
 */
export async function createThreadsTable(db: Pick<PgClient, 'query'>): Promise<void> {
  const found = await db.query('SELECT to_regclass($1) IS NOT NULL AS present', [THREADS_TABLE]);
  if (found.rows[0]?.present === true) return;
  await inTransaction(db, async () => {
    await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [THREADS_TABLE]);
    await db.query('CREATE SCHEMA IF NOT EXISTS june');
    await db.query(`CREATE TABLE IF NOT EXISTS ${THREADS_TABLE} (
      thread_id text NOT NULL,
      run_order integer NOT NULL,
      run_id text NOT NULL UNIQUE,
      agent text,
      conversation text,
      running boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (thread_id, run_order)
    )`);
    await db.query(
      `CREATE UNIQUE INDEX IF NOT EXISTS threads_one_running ON ${THREADS_TABLE} (thread_id) WHERE running`,
    );
  });
}

/** A run's place in its thread, as {@link ThreadStore.take} gives it. */
export interface ThreadPlace {
  order: number;
  /** Whether this call took the hold (false: the run had its place already). */
  taken: boolean;
}

/**
 * The threads of runs over the database ({@link THREADS_TABLE}). A run of a thread takes its
 * place (the thread's next order) and the thread's hold in one transaction when it is queued
 * ({@link take}): a row written once, so the run and any recovery of it have the same order,
 * and read the same history (the conversation of the newest run before it that left one).
 * The hold is the row's `running` flag, one per thread (a unique index): a second run of the
 * thread is refused with `thread-busy` while the run is queued or runs, on any worker, and a
 * recovered run keeps it. The run lets go when it ends (succeeded, failed or cancelled),
 * writing its thread agent's conversation once ({@link end}); a worker that stops leaves it
 * held, as the run stays pending. A hold whose run ended without letting go (cancelled while
 * queued) is let go by the next run of the thread.
 */
export class ThreadStore {
  readonly #database: string;
  #pool: PgPool | undefined;
  #ready: Promise<void> | undefined;

  constructor(database: string) {
    this.#database = database;
  }

  /**
   * Takes the next place of thread `threadId` for run `runId` and holds the thread, unless
   * the run has its place already (the same run queued again, or its worker taking it).
   * @throws {SystemError} `thread-busy` naming the run that holds the thread.
   */
  async take(threadId: string, runId: string): Promise<ThreadPlace> {
    await this.#table();
    const db = await this.#connections().connect();
    try {
      await db.query('BEGIN');
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [
        THREADS_TABLE,
        threadId,
      ]);
      const own = await db.query(
        `SELECT thread_id, run_order FROM ${THREADS_TABLE} WHERE run_id = $1`,
        [runId],
      );
      if (own.rows[0]) {
        await db.query('COMMIT');
        const held = String(own.rows[0].thread_id);
        if (held !== threadId) throw otherThread(runId, held, threadId);
        return { order: Number(own.rows[0].run_order), taken: false };
      }
      const holding = await db.query(
        `SELECT run_id, created_at FROM ${THREADS_TABLE} WHERE thread_id = $1 AND running`,
        [threadId],
      );
      for (const row of holding.rows) {
        const holder = String(row.run_id);
        const status = await runStatus(db, holder);
        const since = new Date(row.created_at as string);
        const live = status
          ? HOLDING.has(status.status)
          : Date.now() - since.getTime() < UNSTORED_HOLD_MS;
        if (live) {
          await db.query('ROLLBACK');
          throw threadBusyInDatabase(threadId, holder, status, since);
        }
        await db.query(`UPDATE ${THREADS_TABLE} SET running = false WHERE run_id = $1`, [holder]);
      }
      const { rows } = await db.query(
        `INSERT INTO ${THREADS_TABLE} (thread_id, run_order, run_id)
         SELECT $1, COALESCE(MAX(run_order), 0) + 1, $2 FROM ${THREADS_TABLE} WHERE thread_id = $1
         RETURNING run_order`,
        [threadId, runId],
      );
      await db.query('COMMIT');
      return { order: Number(rows[0]!.run_order), taken: true };
    } catch (error) {
      await db.query('ROLLBACK').catch(() => {});
      if ((error as { code?: unknown }).code === UNIQUE_VIOLATION)
        throw threadBusyInDatabase(threadId, undefined, undefined, undefined);
      throw error;
    } finally {
      db.release();
    }
  }

  /**
   * What the run `runId` of thread `threadId` (at `order`) starts from: the conversation of
   * the thread's newest run before it that left one; none for a thread with no such run.
   */
  async history(threadId: string, order: number): Promise<ThreadHistory> {
    const { rows } = await this.#connections().query(
      `SELECT run_id, agent, conversation FROM ${THREADS_TABLE}
       WHERE thread_id = $1 AND run_order < $2 AND conversation IS NOT NULL
       ORDER BY run_order DESC LIMIT 1`,
      [threadId, order],
    );
    const row = rows[0];
    if (!row) return { messages: [] };
    return {
      messages: decodeValue(String(row.conversation)) as unknown[],
      ...(row.agent !== null ? { agent: String(row.agent) } : {}),
      runId: String(row.run_id),
    };
  }

  /**
   * Lets go of the thread the run `runId` holds, keeping its thread agent's conversation
   * (`conversation`, when the agent finished) unless one is kept already: the first one
   * written stands (a run recovered after it wrote gives the same).
   */
  async end(runId: string, conversation?: { agent: string; messages: unknown[] }): Promise<void> {
    await this.#connections().query(
      `UPDATE ${THREADS_TABLE} SET running = false,
         agent = CASE WHEN conversation IS NULL THEN $2 ELSE agent END,
         conversation = COALESCE(conversation, $3)
       WHERE run_id = $1`,
      [
        runId,
        conversation ? conversation.agent : null,
        conversation ? encodeValue(conversation.messages) : null,
      ],
    );
  }

  /** Lets go of a hold this process took for a run it could not queue (its row is removed). */
  async forget(runId: string): Promise<void> {
    await this.#connections().query(`DELETE FROM ${THREADS_TABLE} WHERE run_id = $1`, [runId]);
  }

  /** The runs of a thread, in order (oldest first); `[]` for a thread with none. */
  async list(threadId: string): Promise<ThreadRun[]> {
    const rows = await this.#read(
      `SELECT run_id, run_order, created_at FROM ${THREADS_TABLE} WHERE thread_id = $1 ORDER BY run_order`,
      [threadId],
    );
    return rows.map((row) => ({
      runId: String(row.run_id),
      order: Number(row.run_order),
      startedAt: new Date(row.created_at as string).toISOString(),
    }));
  }

  /** The ids of the threads with a run, sorted. */
  async threads(): Promise<string[]> {
    const rows = await this.#read(
      `SELECT DISTINCT thread_id FROM ${THREADS_TABLE} ORDER BY thread_id`,
      [],
    );
    return rows.map((row) => String(row.thread_id));
  }

  /**
   * The thread of each of `runIds` that is a run of a thread: its id and order, by run id.
   */
  async ofRuns(runIds: string[]): Promise<Map<string, { id: string; order: number }>> {
    if (runIds.length === 0) return new Map();
    const rows = await this.#read(
      `SELECT run_id, thread_id, run_order FROM ${THREADS_TABLE} WHERE run_id = ANY($1)`,
      [runIds],
    );
    return new Map(
      rows.map((row) => [
        String(row.run_id),
        { id: String(row.thread_id), order: Number(row.run_order) },
      ]),
    );
  }

  /**
   * Deletes a thread: its runs' rows here and in June's other tables (their calls and
   * answers), refused with `thread-busy` while a run of it holds it; `remove` deletes the
   * runs themselves (DBOS's workflows), under the thread's lock, before the rows go.
   * @returns the runs deleted, in order.
   */
  async delete(
    threadId: string,
    remove: (runIds: string[]) => Promise<void>,
  ): Promise<ThreadRun[]> {
    const runs = await this.list(threadId);
    if (runs.length === 0) return [];
    return pooledTransaction(this.#connections(), async (db) => {
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [
        THREADS_TABLE,
        threadId,
      ]);
      const holding = await db.query(
        `SELECT run_id, created_at FROM ${THREADS_TABLE} WHERE thread_id = $1 AND running`,
        [threadId],
      );
      for (const row of holding.rows) {
        const status = await runStatus(db, String(row.run_id));
        if (!status || HOLDING.has(status.status))
          throw threadBusyInDatabase(
            threadId,
            String(row.run_id),
            status,
            new Date(row.created_at as string),
          );
      }
      const { rows } = await db.query(
        `SELECT run_id, run_order, created_at FROM ${THREADS_TABLE} WHERE thread_id = $1 ORDER BY run_order`,
        [threadId],
      );
      const deleted = rows.map((row) => ({
        runId: String(row.run_id),
        order: Number(row.run_order),
        startedAt: new Date(row.created_at as string).toISOString(),
      }));
      const runIds = deleted.map((run) => run.runId);
      await remove(runIds);
      for (const table of ['june.calls', 'june.answers']) await deleteRows(db, table, runIds);
      await db.query(`DELETE FROM ${THREADS_TABLE} WHERE thread_id = $1`, [threadId]);
      return deleted;
    });
  }

  /** Closes the connections. */
  async close(): Promise<void> {
    await this.#pool?.end().catch(() => {});
  }

  /** Rows of a query on the table; none while the table does not exist. */
  async #read(text: string, values: unknown[]): Promise<Array<Record<string, unknown>>> {
    try {
      return (await this.#connections().query(text, values)).rows;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === UNDEFINED_TABLE || code === UNDEFINED_SCHEMA) return [];
      throw error;
    }
  }

  async #table(): Promise<void> {
    this.#ready ??= this.#connections()
      .connect()
      .then(async (db) => {
        try {
          await createThreadsTable(db);
        } finally {
          db.release();
        }
      });
    await this.#ready.catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
  }

  #connections(): PgPool {
    return (this.#pool ??= pgPool({
      connectionString: this.#database,
      connectionTimeoutMillis: 10_000,
      max: 4,
      idleTimeoutMillis: 10_000,
    }));
  }
}

/** Deletes the rows of `runIds` from `table` (none when it does not exist). */
async function deleteRows(
  db: Pick<PgClient, 'query'>,
  table: string,
  runIds: string[],
): Promise<void> {
  await db.query('SAVEPOINT june_delete');
  try {
    await db.query(`DELETE FROM ${table} WHERE run_id = ANY($1)`, [runIds]);
    await db.query('RELEASE SAVEPOINT june_delete');
  } catch (error) {
    await db.query('ROLLBACK TO SAVEPOINT june_delete');
    const code = (error as { code?: unknown }).code;
    if (code !== UNDEFINED_TABLE && code !== UNDEFINED_SCHEMA) throw error;
  }
}

/** The DBOS status and executor of a run; `undefined` when DBOS has no such run (or no tables yet). */
async function runStatus(
  db: Pick<PgClient, 'query'>,
  runId: string,
): Promise<{ status: string; executor?: string } | undefined> {
  await db.query('SAVEPOINT june_status');
  try {
    const { rows } = await db.query(
      'SELECT status, executor_id FROM dbos.workflow_status WHERE workflow_uuid = $1',
      [runId],
    );
    await db.query('RELEASE SAVEPOINT june_status');
    const row = rows[0];
    if (!row) return undefined;
    return {
      status: String(row.status),
      ...(row.executor_id ? { executor: String(row.executor_id) } : {}),
    };
  } catch (error) {
    await db.query('ROLLBACK TO SAVEPOINT june_status');
    const code = (error as { code?: unknown }).code;
    if (code === UNDEFINED_TABLE || code === UNDEFINED_SCHEMA) return undefined;
    throw error;
  }
}

/**
 * The `thread-busy` of a thread over the database: the run that holds it (queued, or running on
 * a worker), carried as `runId`.
 */
function threadBusyInDatabase(
  threadId: string,
  runId: string | undefined,
  status: { status: string; executor?: string } | undefined,
  since: Date | undefined,
): SystemError {
  const where =
    status?.status === 'PENDING'
      ? ` running${status.executor ? ` on worker ${status.executor}` : ''}`
      : status
        ? ' queued'
        : ' being queued';
  const error = new SystemError(
    'thread-busy',
    `june: thread ${threadId} is busy: ${runId !== undefined ? `run ${runId} of it is${where}` : 'another run of it was just queued'}${since ? ` since ${since.toISOString()}` : ''}; a thread runs one run at a time, so its conversation never interleaves. Wait for that run to end (june run --database ... --follow), or cancel it (june cancel --database ...).`,
  );
  return Object.assign(error, runId !== undefined ? { runId } : {});
}

function otherThread(runId: string, held: string, threadId: string): WorkflowError {
  return new WorkflowError(
    'dbos-run-exists',
    `june: the database already has a run ${runId} of thread ${held}; a run of thread ${threadId} cannot take its id. Leave out the run id for a new run, or pick another one.`,
  );
}
