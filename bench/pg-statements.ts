// Statements PostgreSQL executed, from pg_stat_statements: the bench's count of database round
// trips (the pg driver sends each statement, BEGIN and COMMIT included, as one round trip).
import { pgClient, type PgClient } from '../src/dbos/pg-driver.js';
import type { TestPostgres } from '../test/helpers/postgres.js';

/** Calls per statement (its normalized text, as pg_stat_statements keeps it). */
export type StatementCounts = Map<string, number>;

/** Marks the bench's own statements, left out of every count. */
export const BENCH_MARK = '/* june-bench */';

async function withClient<T>(url: string, work: (client: PgClient) => Promise<T>): Promise<T> {
  const client = pgClient({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Loads pg_stat_statements into the test server (a restart with `shared_preload_libraries`)
 * and creates the extension in the database `postgres`. Utility statements (BEGIN, COMMIT)
 * are counted too (`pg_stat_statements.track_utility` is on by default).
 * @returns false when the server has no pg_stat_statements (the counts are then left out).
 */
export async function enableStatementCounts(server: TestPostgres): Promise<boolean> {
  const admin = server.url('postgres');
  try {
    await withClient(admin, (c) =>
      c.query(`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`),
    );
    server.shutDown();
    server.startAgain();
    await withClient(admin, (c) => c.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements'));
    return true;
  } catch {
    return false;
  }
}

/** Zeroes the counts. */
export function resetStatementCounts(server: TestPostgres): Promise<void> {
  return withClient(server.url('postgres'), async (c) => {
    await c.query(`${BENCH_MARK} SELECT pg_stat_statements_reset()`);
  });
}

/** The calls of every statement since the last reset, the bench's own and the reset left out. */
export function statementCounts(server: TestPostgres): Promise<StatementCounts> {
  return withClient(server.url('postgres'), async (c) => {
    const { rows } = (await c.query(
      `${BENCH_MARK} SELECT query, calls FROM pg_stat_statements`,
    )) as { rows: Array<{ query: string; calls: string }> };
    const counts: StatementCounts = new Map();
    for (const row of rows) {
      if (row.query.includes(BENCH_MARK) || row.query.includes('pg_stat_statements')) continue;
      const query = row.query.replace(/\s+/g, ' ').trim();
      counts.set(query, (counts.get(query) ?? 0) + Number(row.calls));
    }
    return counts;
  });
}

/**
 * The dequeue's search for runs to start, in whichever of its forms (its text varies with the
 * queue's limits and with what it found): polling, with or without runs.
 */
const POLLING =
  /^SELECT workflow_uuid FROM "dbos"\.workflow_status WHERE status = \$1 AND queue_name = \$2/;

const isEnd = (query: string) => /^(COMMIT|ROLLBACK)\b/i.test(query);
const isBegin = (query: string) => /^(BEGIN|START TRANSACTION)\b/i.test(query);

/**
 * The statements of the runs themselves in `counts`: every statement the idle system also ran
 * (`idle`: the workers' queue polling, which goes on with or without runs, including the poll
 * that finds a run, and DBOS's statements on a timer: reconciling queues, moving delayed
 * workflows, the scheduler) is left out; COMMIT and ROLLBACK,
 * which polls and runs share, are counted as one per transaction the runs opened (their BEGINs
 * that the idle system does not run).
 */
export function runStatements(counts: StatementCounts, idle: ReadonlySet<string>): StatementCounts {
  const out: StatementCounts = new Map();
  let transactions = 0;
  for (const [query, calls] of counts) {
    if (isEnd(query) || idle.has(query) || POLLING.test(query)) continue;
    out.set(query, calls);
    if (isBegin(query)) transactions += calls;
  }
  if (transactions > 0) out.set('COMMIT', transactions);
  return out;
}

/** The sum of the calls in `counts`. */
export function total(counts: StatementCounts): number {
  let sum = 0;
  for (const calls of counts.values()) sum += calls;
  return sum;
}
