import { hostname } from 'node:os';
import { WorkflowError } from '../errors/index.js';
import { databaseName, lockClient } from './lock-client.js';
import type { PgClient } from './pg-driver.js';

/** The worker process that holds an executor id, as it named itself to PostgreSQL. */
export interface ExecutorHolder {
  /** The holder's host name (cut where PostgreSQL's 63-byte application name ends). */
  host: string;
  /** The holder's process id on that host. */
  pid: number;
  /** When it took the id (to the second). */
  since: Date;
}

/** A worker's hold on its executor id, taken by {@link holdExecutorId}. */
export interface ExecutorHold {
  /** Lets go of the id: ends the session that holds it. Calling it again does nothing. */
  release(): Promise<void>;
}

/** Options of {@link holdExecutorId}. */
export interface HoldExecutorOptions {
  /** Where the hold's notices go (its connection was lost, it holds the id again): one `june:` line each. */
  log(line: string): void;
  /**
   * Called once when, after its connection was lost, the id is held by another worker (one
   * started with the same id while this one could not reach the database): this worker must
   * stop taking runs. `holder` is `undefined` when the holder's details cannot be read.
   */
  onTaken(holder: ExecutorHolder | undefined): void;
}

/** ms between tries to take the id again after the hold's connection was lost. */
const RETAKE_MS = 1_000;

/** How a holding session names itself in `pg_stat_activity.application_name`. */
const HOLDER_TAG = 'june worker';

/**
 * Takes `executorId` for this process for as long as the process lives (or until
 * `release`): a PostgreSQL session advisory lock named after the database and the id, held
 * on a connection of its own (in the server's `postgres` database, else `database` itself:
 * see `lockClient`). DBOS recovers the pending runs of a worker's executor id when it
 * launches, so a second worker started with the id of a live one would run that worker's
 * runs again, at the same time: taken before the launch, the hold refuses it first. The
 * server lets go of the lock when the process dies (kill -9 included), so a worker restarted
 * with the same id after a crash takes it and recovers its runs as before. The session names
 * its holder (pid, start, host) in its application name, so a refused worker can say who
 * holds the id.
 *
 * When the hold's connection is lost (the database restarted), it is taken again every
 * second; if another worker took the id meanwhile, `onTaken` says so.
 *
 * Resolves `undefined` when there is nowhere to lock yet (a new database, and no right to
 * the server's `postgres` database): there is nothing to recover then, and the caller takes
 * the hold again once DBOS has created the database.
 *
 * @throws {WorkflowError} `dbos-executor-held` when a live worker holds `executorId`.
 * @throws {SystemError} `database-unreachable`, `database-auth-failed`.
 */
export async function holdExecutorId(
  database: string,
  executorId: string,
  options: HoldExecutorOptions,
): Promise<ExecutorHold | undefined> {
  const self: ExecutorHolder = { host: hostname(), pid: process.pid, since: new Date() };
  const key = [`june.dbos-executor:${databaseName(database)}`, executorId];
  const first = await take(database, key, self);
  if (!first) return undefined;
  if ('holder' in first) throw heldError(executorId, first.holder);
  let client: PgClient | undefined = first.client;
  let released = false;
  let timer: NodeJS.Timeout | undefined;
  const retake = async (): Promise<void> => {
    timer = undefined;
    const taken = await take(database, key, self).catch(() => undefined);
    if (released) {
      if (taken && 'client' in taken) await taken.client.end().catch(() => {});
      return;
    }
    if (taken && 'holder' in taken) return options.onTaken(taken.holder);
    if (!taken) {
      timer = setTimeout(() => void retake(), RETAKE_MS).unref();
      return;
    }
    client = taken.client;
    watch(taken.client);
    options.log(`june: worker ${executorId} holds its executor id again`);
  };
  const watch = (session: PgClient) => {
    let lost = false;
    const onLost = () => {
      if (lost || released) return;
      lost = true;
      client = undefined;
      void session.end().catch(() => {});
      options.log(
        `june: worker ${executorId} lost the database session that holds its executor id; taking it again`,
      );
      timer = setTimeout(() => void retake(), RETAKE_MS).unref();
    };
    session.on('error', onLost);
    (session as unknown as { on(event: 'end', listener: () => void): unknown }).on('end', onLost);
  };
  watch(first.client);
  return {
    release: async () => {
      if (released) return;
      released = true;
      if (timer) clearTimeout(timer);
      await client?.end().catch(() => {});
    },
  };
}

/**
 * One try to take the lock: the connected session that holds it, the holder when another
 * session holds it, `undefined` when there is nowhere to lock yet.
 */
async function take(
  database: string,
  key: string[],
  self: ExecutorHolder,
): Promise<{ client: PgClient } | { holder: ExecutorHolder | undefined } | undefined> {
  const client = await lockClient(database, holderName(self));
  if (!client) return undefined;
  try {
    // a holder whose machine vanished (no FIN reaches the server) lets go within about 25 s,
    // not after the server's default of 2 hours of TCP silence
    await client.query(
      "SELECT set_config('tcp_keepalives_idle', '10', false), set_config('tcp_keepalives_interval', '5', false), set_config('tcp_keepalives_count', '3', false)",
    );
    const tried = await client.query(
      'SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS locked',
      key,
    );
    if (tried.rows[0]?.locked === true) return { client };
    const holder = await readHolder(client, key);
    await client.end().catch(() => {});
    return { holder };
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
}

/** The holder of the lock `key`, from its session's application name (`undefined` when it cannot be read). */
async function readHolder(client: PgClient, key: string[]): Promise<ExecutorHolder | undefined> {
  const found = await client
    .query(
      `SELECT a.application_name AS name
         FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND l.classid::bigint = (hashtext($1)::bigint & 4294967295)
          AND l.objid::bigint = (hashtext($2)::bigint & 4294967295)`,
      key,
    )
    .catch(() => ({ rows: [] }));
  return parseHolderName(String(found.rows[0]?.name ?? ''));
}

/**
 * The application name a holding session goes by: `june worker <pid> <since, epoch s> <host>`,
 * the host last, since PostgreSQL cuts the name at 63 bytes.
 *
 * @example
 * ```ts
 * holderName({ host: 'w1', pid: 42, since: new Date(0) }); // 'june worker 42 0 w1'
 * ```
 */
export function holderName(holder: ExecutorHolder): string {
  const since = Math.floor(holder.since.getTime() / 1000);
  return `${HOLDER_TAG} ${holder.pid} ${since} ${holder.host}`;
}

/** The holder a {@link holderName} names; `undefined` for any other name. */
export function parseHolderName(name: string): ExecutorHolder | undefined {
  const match = new RegExp(`^${HOLDER_TAG} (\\d+) (\\d+) (.*)$`).exec(name);
  if (!match) return undefined;
  return { pid: Number(match[1]), since: new Date(Number(match[2]) * 1000), host: match[3]! };
}

/** The holder in words: `pid 42 on w1, since 2026-12-02T04:50:01Z`. */
export function describeHolder(holder: ExecutorHolder | undefined): string {
  if (!holder) return 'a live worker whose details PostgreSQL does not show to this user';
  const since = holder.since.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `a live worker: pid ${holder.pid} on ${holder.host || 'an unnamed host'}, since ${since}`;
}

function heldError(executorId: string, holder: ExecutorHolder | undefined): WorkflowError {
  return new WorkflowError(
    'dbos-executor-held',
    `june: the executor id "${executorId}" is held by ${describeHolder(holder)}. A second worker with that id would recover and run that worker's runs again while it runs them; nothing was started. Give this worker an id of its own with --executor (executorId in startWorker, or DBOS__VMID), or stop the other worker first.`,
    {
      details: {
        executorId,
        ...(holder ? { holder: { ...holder, since: holder.since.toISOString() } } : {}),
      },
    },
  );
}
