import type { SettledAnswer } from '../approvals/approval-answer-result.js';
import { answerOrigin } from '../approvals/answer-origin.js';
import { withReason } from '../approvals/with-reason.js';
import { CALLS_TABLE, decodeValue } from './call-records.js';
import type { DbosApprovalAnswer, DbosApprovalRequest } from './dbos-engine.js';
import { ANSWERS_CHANNEL } from './names.js';
import {
  pgPool,
  pooledTransaction,
  type PgClient,
  type PgPool,
  inTransaction,
} from './pg-driver.js';

/** June's table of approval answers in the system database: one row per answered request. */
export const ANSWERS_TABLE = 'june.answers';

/** PostgreSQL's code for a table that does not exist. */
const UNDEFINED_TABLE = '42P01';

/**
 * Creates {@link ANSWERS_TABLE} (and its schema, `june`) unless it exists: idempotent, and
 * safe from any number of processes at once (they create it one after the other, under a
 * transaction-scoped advisory lock). Creating needs the right to create a schema in the
 * database (its owner has it); a process that finds the table made needs no such right.
 *
 * Columns: `run_id`, `request_id` (the key), `answer` (the message sent to the run, JSON),
 * `source` (through what), `answered_at` (when the person answered), `stored_at`.
 */
export async function createAnswersTable(db: Pick<PgClient, 'query'>): Promise<void> {
  const found = await db.query('SELECT to_regclass($1) IS NOT NULL AS present', [ANSWERS_TABLE]);
  if (found.rows[0]?.present === true) return;
  await inTransaction(db, async () => {
    await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [ANSWERS_TABLE]);
    await db.query('CREATE SCHEMA IF NOT EXISTS june');
    await db.query(`CREATE TABLE IF NOT EXISTS ${ANSWERS_TABLE} (
      run_id text NOT NULL,
      request_id text NOT NULL,
      answer jsonb NOT NULL,
      source text NOT NULL,
      answered_at timestamptz NOT NULL,
      stored_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (run_id, request_id)
    )`);
  });
}

/**
 * The answers given to runs' approval requests over the database, kept in
 * {@link ANSWERS_TABLE}: the first answer stored for a request is the one that applies,
 * decided by PostgreSQL (a primary key and `INSERT ... ON CONFLICT DO NOTHING`), and it is
 * sent to the run in the same transaction, so an answer is stored and sent, or neither (a run
 * waiting by place reads it here, see `AnswerWaits`; a run of an older June receives the
 * message).
 * Connections come from a small pool of its own, opened on first use.
 */
export class AnswerStore {
  readonly #database: string;
  #pool: PgPool | undefined;
  #ready: Promise<void> | undefined;

  constructor(database: string) {
    this.#database = database;
  }

  /** The answers stored for the run `runId`'s requests, by request id; none before the table exists. */
  async answers(runId: string): Promise<Map<string, DbosApprovalAnswer>> {
    try {
      const { rows } = await this.#connections().query(
        `SELECT request_id, answer FROM ${ANSWERS_TABLE} WHERE run_id = $1`,
        [runId],
      );
      return new Map(rows.map((row) => [String(row.request_id), row.answer as DbosApprovalAnswer]));
    } catch (error) {
      if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return new Map();
      throw error;
    }
  }

  /**
   * What the run `runId` recorded of its approvals in its place table (`june.calls`): the
   * requests it asked, in the order it asked them, and the answers it took, by request id.
   * None for a run that waits with `DBOS.recv` (an older June's), or before the table exists.
   */
  async placed(
    runId: string,
  ): Promise<{ requests: DbosApprovalRequest[]; taken: Map<string, DbosApprovalAnswer> }> {
    const requests: DbosApprovalRequest[] = [];
    const taken = new Map<string, DbosApprovalAnswer>();
    try {
      const { rows } = await this.#connections().query(
        `SELECT place, record FROM ${CALLS_TABLE} WHERE run_id = $1
           AND (place LIKE 'approval %' OR place LIKE 'answer %') ORDER BY stored_at, place`,
        [runId],
      );
      for (const row of rows) {
        const record = decodeValue(String(row.record));
        if (String(row.place).startsWith('answer ')) {
          const answer = record as DbosApprovalAnswer;
          taken.set(answer.id, answer);
        } else {
          const { askedAt: _askedAt, ...request } = record as DbosApprovalRequest & {
            askedAt?: string;
          };
          requests.push(request);
        }
      }
    } catch (error) {
      if ((error as { code?: unknown }).code !== UNDEFINED_TABLE) throw error;
    }
    return { requests, taken };
  }

  /**
   * Stores `message` as the answer to its request (`message.id`) of the run `runId` unless
   * an answer is stored already, and then, in the same transaction, `send`s it (a DBOS
   * message written through the transaction's connection). Of any number of processes
   * storing answers to one request at once, exactly one stores its own.
   * @returns undefined when `message` was stored and sent; else the answer that stands.
   * @throws the database's error (nothing is stored then).
   */
  async store(
    runId: string,
    message: DbosApprovalAnswer,
    send: (db: PgClient) => Promise<void>,
  ): Promise<DbosApprovalAnswer | undefined> {
    const pool = this.#connections();
    this.#ready ??= pool.connect().then(async (db) => {
      try {
        await createAnswersTable(db);
      } finally {
        db.release();
      }
    });
    await this.#ready.catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return pooledTransaction(pool, async (db) => {
      const stored = await db.query(
        `INSERT INTO ${ANSWERS_TABLE} (run_id, request_id, answer, source, answered_at)
         VALUES ($1, $2, $3::jsonb, $4, $5)
         ON CONFLICT (run_id, request_id) DO NOTHING RETURNING request_id`,
        [
          runId,
          message.id,
          JSON.stringify(message),
          message.source ?? 'database',
          message.answeredAt,
        ],
      );
      if (stored.rows.length === 1) {
        await send(db);
        // told when the transaction commits: the run's worker looks the answer up at once
        await db.query('SELECT pg_notify($1, $2)', [ANSWERS_CHANNEL, runId]);
        return undefined;
      }
      // a later answer waited above for the first one's transaction to end, and reads it now
      const standing = await db.query(
        `SELECT answer FROM ${ANSWERS_TABLE} WHERE run_id = $1 AND request_id = $2`,
        [runId, message.id],
      );
      return standing.rows[0]!.answer as DbosApprovalAnswer;
    });
  }

  /** Closes the connections. */
  async close(): Promise<void> {
    await this.#pool?.end().catch(() => {});
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

/**
 * An answer as the run's message holds it, as records keep answers: the decision, and who
 * gave it, when and through what (`database` when the message does not say); never automatic.
 */
export function settledAnswerOf(message: DbosApprovalAnswer): SettledAnswer {
  return {
    approved: message.approved === true,
    ...withReason(message.reason),
    ...(message.input !== undefined ? { input: message.input } : {}),
    ...(message.output !== undefined ? { output: message.output } : {}),
    ...answerOrigin(
      message,
      typeof message.source === 'string' ? message.source : 'database',
      false,
    ),
  };
}
