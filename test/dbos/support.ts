// Helpers for the DBOS tests: a project with the ledger workflow, worker processes, the CLI,
// and waiting for a condition (polled; never a fixed sleep).
import { spawnSync } from 'node:child_process';
import { readFileSync, existsSync, realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { RunClient } from 'june/dbos';
import { pgClient, type PgClient } from '../../src/dbos/pg-driver.js';
import type { RunLogEvent } from '../../src/events/run-event.js';
import { applyEvent, liveTrace, type LiveTrace } from '../../src/events/index.js';
import { startJune, tempProject, type RunningJune } from '../cli/cli-harness.js';
import { postgresBin, startPostgres, type TestPostgres } from '../helpers/postgres.js';

/** The ledger workflow's source (fixtures/ledger.tsx), to write into a test project. */
export const ledgerSource = readFileSync(new URL('./fixtures/ledger.tsx', import.meta.url), 'utf8');

/** A temporary project holding `ledger.tsx`, and a folder for the runs' logs. */
export function ledgerProject() {
  const project = tempProject();
  project.write('ledger.tsx', ledgerSource);
  return { ...project, logs: project.folder('logs') };
}

/** A `june worker` process. */
export interface WorkerProcess {
  readonly executor: string;
  readonly running: RunningJune;
  /** kill -9. */
  kill(): Promise<void>;
  /** SIGTERM, and waits for it to stop. */
  stop(): Promise<void>;
}

/**
 * Starts `june worker <files> --database <url> --executor <executor>` and waits until it
 * listens; with `executor` `null`, without `--executor` (the worker's default id, the host
 * name).
 */
export async function startWorker(
  cwd: string,
  database: string,
  executor: string | null,
  options: {
    files?: string[];
    env?: Record<string, string>;
    concurrency?: number;
    /** `--polling-interval`, ms; June's default when absent. */
    pollingIntervalMs?: number;
    /** More flags (`--prices prices.json`). */
    args?: string[];
  } = {},
): Promise<WorkerProcess> {
  const running = startJune(
    [
      'worker',
      ...(options.files ?? ['ledger.tsx']),
      '--database',
      database,
      ...(executor === null ? [] : ['--executor', executor]),
      '--concurrency',
      String(options.concurrency ?? 20),
      ...(options.pollingIntervalMs === undefined
        ? []
        : ['--polling-interval', String(options.pollingIntervalMs)]),
      ...(options.args ?? []),
    ],
    cwd,
    options.env,
  );
  const ended = running.done.then((result) => {
    throw new Error(`the worker ${executor} ended: ${result.code} ${result.stderr}`);
  });
  ended.catch(() => {});
  await Promise.race([
    waitFor(() => running.output().stdout.includes('june worker'), 60_000),
    ended,
  ]);
  return workerProcess(running, executor ?? hostname());
}

/** A started `june worker` process, to kill or stop. */
export function workerProcess(running: RunningJune, executor: string): WorkerProcess {
  return {
    executor,
    running,
    kill: async () => {
      process.kill(running.pid, 'SIGKILL');
      await running.done;
    },
    stop: async () => {
      process.kill(running.pid, 'SIGTERM');
      await running.done;
    },
  };
}

/** A PostgreSQL of its own with the ledger project, one worker on it, and clients to read it. */
export interface LedgerDatabase {
  pg: TestPostgres;
  project: ReturnType<typeof ledgerProject>;
  database: string;
  worker: WorkerProcess;
  /** June's client, as a program enqueuing and following runs has it. */
  client: RunClient;
  /** A plain connection, for what DBOS stored. */
  db: PgClient;
  /** Ends all of it (each part even when another fails). */
  close(): Promise<void>;
}

/**
 * Starts PostgreSQL, a database `name` on it, the ledger project and a worker `executor` on
 * it (with `options` as {@link startWorker}'s), then June's client and a plain connection.
 */
export async function ledgerDatabase(
  name: string,
  executor: string,
  options: Parameters<typeof startWorker>[3] = {},
): Promise<LedgerDatabase> {
  const pg = await startPostgres();
  const database = pg.url(name);
  const project = ledgerProject();
  const worker = await startWorker(project.dir, database, executor, options);
  const client = await RunClient.connect(database);
  const db = pgClient({ connectionString: database });
  await db.connect();
  const close = async () => {
    await client.close().catch(() => {});
    await db.end().catch(() => {});
    await worker.stop().catch(() => {});
    await pg.stop();
    project.remove();
  };
  return { pg, project, database, worker, client, db, close };
}

/** Polls `condition` every 50 ms until it holds; fails after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
  what = 'a condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The lines of a log file in `dir` (none when it does not exist). */
export function lines(dir: string, file: string): string[] {
  const path = join(dir, file);
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

/** How often each line occurs. */
export function counts(items: string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const item of items) map.set(item, (map.get(item) ?? 0) + 1);
  return map;
}

/**
 * `pg_dump --data-only` of a database: everything PostgreSQL keeps there, as text (PostgreSQL's
 * pg_dump beside the server's initdb; a PATH entry may be a link to it).
 */
export function pgDump(database: string): string {
  const bin = join(dirname(realpathSync(join(postgresBin()!, 'initdb'))), 'pg_dump');
  const dump = spawnSync(bin, ['--data-only', database], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (dump.error || dump.status !== 0)
    throw new Error(`pg_dump failed (${dump.status}): ${dump.error?.message ?? dump.stderr}`);
  return dump.stdout;
}

/** The lines of `text` holding any of `secrets`, each cut to 160 characters (none: `[]`). */
export function linesWith(text: string, secrets: readonly string[]): string[] {
  return text
    .split('\n')
    .filter((line) => secrets.some((secret) => line.includes(secret)))
    .map((line) => line.slice(0, 160));
}

/**
 * The ids of the approval requests the run `runId` asked, in order, as it told them (its
 * events' stream): one list per start (the first, each recovery).
 */
export async function askedByStart(database: string, runId: string): Promise<string[][]> {
  const db = pgClient({ connectionString: database });
  await db.connect();
  try {
    const { rows } = await db.query(
      `SELECT value FROM dbos.streams WHERE workflow_uuid = $1 AND key = 'june.events' ORDER BY "offset"`,
      [runId],
    );
    const starts: string[][] = [];
    for (const row of rows) {
      const batch = JSON.parse(String(row.value)) as { events: RunLogEvent[]; first?: unknown };
      if (batch.first !== undefined || starts.length === 0) starts.push([]);
      for (const event of batch.events)
        if (event.type === 'approval-request') starts.at(-1)!.push(event.request.id);
    }
    return starts;
  } finally {
    await db.end();
  }
}

/** What {@link followRun} has read of a run: its events, the trace they build, and its end. */
export interface FollowedRun {
  events: RunLogEvent[];
  live: LiveTrace;
  /** Settles once the run ended and every event was read. */
  done: Promise<void>;
}

/** Follows the run `runId` through `client.events` (as Studio and `--follow` do), building its trace. */
export function followRun(client: RunClient, runId: string): FollowedRun {
  const followed = { events: [] as RunLogEvent[], live: liveTrace() };
  const done = (async () => {
    for await (const event of client.events(runId)) {
      followed.events.push(event);
      applyEvent(followed.live, event);
    }
  })();
  return { ...followed, done };
}
