import { hostname } from 'node:os';
import { WorkflowError } from '../errors/index.js';
import { DEFAULT_ABORT_GRACE_MS } from '../interpreter/abort-grace.js';
import type { RedactOptions } from '../redaction/redactor.js';
import type { ModelPrices } from '../models/price.js';
import { databaseError, safeUrl } from './database-error.js';
import { probeDatabase } from './database-probe.js';
import { describeHolder, holdExecutorId, type ExecutorHolder } from './executor-hold.js';
import { loadDbos, type DbosSdk } from './load-dbos.js';
import {
  APPLICATION,
  APPLICATION_VERSION,
  QUEUE_POLLING_MS,
  RUN_WORKFLOW,
  queueName,
} from './names.js';
import type { QueuedRun } from './queued-run.js';
import { failedRunOf, registerRunWorkflow, type WorkerWorkflow } from './run-workflow.js';
import { withSetupLock } from './setup-lock.js';
import { createAnswersTable } from './answer-store.js';
import { AnswerWaits } from './answer-waits.js';
import { CallRecords, createCallsTable } from './call-records.js';
import { createThreadsTable, ThreadStore } from './thread-store.js';
import { pgClient } from './pg-driver.js';
import { WorkerLog, type WorkerLogLevel } from './worker-log.js';
import { WorkerShutdown } from './worker-shutdown.js';
import { wakeupsLine, workerWakeups, type WorkerWakeups } from './worker-wakeups.js';

/** Options of {@link startWorker}. */
export interface WorkerOptions {
  /** The PostgreSQL URL every worker and client shares (`postgresql://user:pass@host:5432/june`). */
  database: string;
  /** The workflows this worker runs, by name (`june worker` names them by file: `release` for `release.tsx`). */
  workflows: Record<string, WorkerWorkflow>;
  /**
   * How many runs this worker runs at once, per workflow. DBOS keeps a queue's settings in
   * the database, one row per workflow: the worker started last sets them for every worker
   * of that workflow. @default 10
   */
  concurrency?: number;
  /**
   * ms between this worker's polls of each workflow's queue for new runs (DBOS's
   * `minPollingIntervalMs`). With its wake-ups on (`wakeups`), the worker also polls a queue
   * at once when a June client (`RunClient`) enqueues a run there and when one of its runs of
   * it ends, so the interval
   * is what a run waits only when neither woke it (a run enqueued by DBOS's own client, a
   * notification lost). Each poll costs the database a short transaction (4 statements), per
   * worker and workflow, busy or not; kept in the database like `concurrency`. See
   * {@link QUEUE_POLLING_MS}. @default 50
   */
  pollingIntervalMs?: number;
  /**
   * Whether the worker polls a queue at once when a June client enqueues a run there or one
   * of its runs of it ends (the wake-ups, which reach into DBOS's queue scheduler), besides
   * its timed polls. Used only on the DBOS versions June's tests ran them on
   * (`WAKEUPS_TESTED_DBOS`); elsewhere, or with `false` (`june worker --no-wakeups`), the
   * worker polls every `pollingIntervalMs` on DBOS's public settings alone. The worker logs
   * which one it uses, and why, once at start. When not given, the environment variable
   * `JUNE_DBOS_WAKEUPS=off` turns them off. @default true
   */
  wakeups?: boolean;
  /**
   * The worker's executor id: a worker started again with the same id recovers the runs it
   * had in flight. A live worker holds its id (see `holdExecutorId`): a second worker started
   * with it is refused with `dbos-executor-held`, so two workers on one host need an id each.
   * @default `DBOS__VMID`, else the host name
   */
  executorId?: string;
  /** The least severe of DBOS's own log entries the worker prints (`error`, `warn`, `info`, `debug`). @default 'warn' */
  logLevel?: WorkerLogLevel;
  /**
   * Where the worker's notices go, one `june:` line each without its newline: the database
   * went away, the worker reconnected, it waits for another worker setting up a new
   * database, a run failed, and DBOS's own entries at `logLevel` (never a stack trace).
   * @default a line on stderr
   */
  log?: (line: string) => void;
  /**
   * Kept out of what every run of this worker stores and publishes (as `run()`'s `redact`
   * option), besides each run's own redaction (the patterns and environment variable
   * names it was enqueued with, those variables read here).
   */
  redact?: RedactOptions;
  /**
   * The values of secret props (`june worker --secret-props`): a run enqueued with secret
   * props carries only their names and gets their values here; each value is redacted.
   */
  secretProps?: Record<string, unknown>;
  /**
   * Prices of your own for the model calls of every run this worker runs, in USD per million
   * tokens by `"<provider>:<model id>"`, before the bundled catalog's (as `run()`'s `prices`;
   * see docs/costs.md).
   */
  prices?: ModelPrices;
}

/** What {@link JuneWorker.stop} left. */
export interface WorkerStopped {
  /** The runs that were in flight: aborted here, pending in the database for recovery. */
  pending: string[];
}

/** A running worker. */
export interface JuneWorker {
  readonly executorId: string;
  /**
   * Settles once the worker has stopped: by {@link JuneWorker.stop}, or on its own when its
   * executor id was taken by another worker while the database could not be reached (it
   * says so in a `june:` line first).
   */
  readonly stopped: Promise<WorkerStopped>;
  /**
   * Stops the worker: it takes no more runs, aborts its runs in flight (their tools' abort
   * signals fire: a `<Bash>` command's processes end, an MCP server closes, a model call is
   * cancelled) without recording how they ended, so they stay pending in the database, and
   * a worker started again with the same executor id takes each up where its records end;
   * then it disconnects. Settles within the runs' abort grace (5 s) and a little more.
   * Calling it again returns the same promise.
   */
  stop(): Promise<WorkerStopped>;
}

/**
 * Starts a worker in this process (one per process: DBOS is process-wide): takes its executor
 * id (refused while a live worker holds it), registers June's run workflow, recovers the
 * runs this executor id had in flight, and takes queued runs of its workflows. Workers
 * started at once against a new database set it up one after the other (see
 * `withSetupLock`). DBOS's log goes through {@link WorkerLog}: one `june:` line
 * when the database goes away and one when the worker reconnected.
 *
 * @throws {SystemError} `dbos-missing`, `database-unreachable`, `database-auth-failed`.
 * @throws {WorkflowError} `dbos-worker-workflow-missing` when this executor id has runs in
 *   flight of a workflow it was not given (nothing is started, nothing is lost).
 * @throws {WorkflowError} `dbos-executor-held` when a live worker holds this executor id
 *   (nothing is started or recovered; the message names the holder's host, pid and start).
 * @example
 * ```ts
 * const worker = await startWorker({ database: process.env.DATABASE_URL!, workflows: { release: Release } });
 * ```
 */
export async function startWorker(options: WorkerOptions): Promise<JuneWorker> {
  const { DBOS } = await loadDbos();
  const executorId = options.executorId ?? process.env.DBOS__VMID ?? hostname();
  const names = Object.keys(options.workflows);
  const write = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  await probeDatabase(options.database, true);
  let stopSelf: () => void = () => {};
  const holdOptions = {
    log: write,
    onTaken: (holder: ExecutorHolder | undefined) => {
      write(
        `june: worker ${executorId} stops: its executor id is now held by ${describeHolder(holder)}, started while this worker could not reach the database`,
      );
      stopSelf();
    },
  };
  // before DBOS recovers anything: a live worker with this id would be running those runs
  let hold = await holdExecutorId(options.database, executorId, holdOptions);
  const log = new WorkerLog({
    executorId,
    database: options.database,
    write,
    ...(options.logLevel ? { level: options.logLevel } : {}),
    // through DBOS's own pool: it works again once DBOS has reconnected
    probe: () => DBOS.listWorkflows({ limit: 1, loadInput: false, loadOutput: false }),
    failedRun: failedRunOf,
  });
  const { shutdown, wakeups, records, answers, threads } = workerParts(options, names);
  try {
    const parts = { executorId, names, log, shutdown, wakeups, write, records, answers, threads };
    await setUpAndLaunch(DBOS, options, parts);
    // nowhere to lock before DBOS created the database: a new one has nothing to recover yet
    hold ??= await holdExecutorId(options.database, executorId, holdOptions);
  } catch (error) {
    await Promise.all([records.close(), answers.close(), threads.close()]);
    await hold?.release();
    throw error;
  }
  const stop = async (): Promise<WorkerStopped> => {
    const pending = await shutdown.stop(
      `the worker ${executorId} is stopping (a worker started again with the executor id ${executorId} takes the run up again)`,
      DEFAULT_ABORT_GRACE_MS,
    );
    log.close();
    await DBOS.shutdown().finally(() =>
      Promise.all([wakeups.close(), records.close(), answers.close(), threads.close()]),
    );
    // last: another worker may take this id only once this one has let go of every run
    await hold?.release();
    return { pending };
  };
  let stopping: Promise<WorkerStopped> | undefined;
  let settle: (stopped: Promise<WorkerStopped>) => void = () => {};
  const stopped = new Promise<WorkerStopped>((resolve) => (settle = resolve));
  stopSelf = () => settle((stopping ??= stop()));
  return {
    executorId,
    stopped,
    stop: () => {
      stopSelf();
      return stopping!;
    },
  };
}

/**
 * What a worker runs its runs with: its stop, how it learns of new runs, and its runs' records by
 * place (their calls and approvals) with the waits for their answers.
 */
function workerParts(options: WorkerOptions, names: string[]) {
  const { database } = options;
  return {
    shutdown: new WorkerShutdown(),
    wakeups: workerWakeups({
      queues: names.map(queueName),
      ...(options.wakeups !== undefined ? { wakeups: options.wakeups } : {}),
    }),
    records: new CallRecords(database, poolSizes(options.concurrency ?? 10).records),
    answers: new AnswerWaits(database),
    threads: new ThreadStore(database),
  };
}

/**
 * The connections a worker's pools hold at most, for `concurrency` runs at once per
 * workflow: DBOS's system database pool (its default of 10 up to 20 runs at once, of which
 * its polling reads may take half; then one for each two runs) and June's place table's
 * (8, then one for each four runs), each run's statements waiting less for a connection.
 * At 100 runs at once that is 50 and 25, within PostgreSQL's default of 100 connections for
 * one worker; several such workers on one server need its `max_connections` raised.
 */
export function poolSizes(concurrency: number): { dbos: number; records: number } {
  return {
    dbos: Math.max(10, Math.ceil(concurrency / 2)),
    records: Math.max(8, Math.ceil(concurrency / 4)),
  };
}

/**
 * Checks the runs this executor id has in flight, configures DBOS and launches it (which
 * recovers them), under June's set-up lock so that workers started at once on a new
 * database do not read or migrate it at once.
 */
async function setUpAndLaunch(
  dbos: DbosSdk['DBOS'],
  options: WorkerOptions,
  parts: {
    executorId: string;
    names: string[];
    log: WorkerLog;
    shutdown: WorkerShutdown;
    wakeups: WorkerWakeups;
    write: (line: string) => void;
    records: CallRecords;
    answers: AnswerWaits;
    threads: ThreadStore;
  },
): Promise<void> {
  const { executorId, names, log, wakeups } = parts;
  await withSetupLock(
    options.database,
    async () => {
      await checkInFlight(options.database, executorId, names);
      dbos.setConfig({
        name: APPLICATION,
        systemDatabaseUrl: options.database,
        executorID: executorId,
        applicationVersion: APPLICATION_VERSION,
        listenQueues: names.map(queueName),
        logger: log,
        systemDatabasePoolSize: poolSizes(options.concurrency ?? 10).dbos,
      });
      // the worker's redaction and secret props (WorkerSecrets) for every run it takes
      registerRunWorkflow(
        dbos,
        new Map(Object.entries(options.workflows)),
        options,
        parts.shutdown,
        parts.records,
        parts.answers,
        parts.threads,
      );
      const queue = {
        workerConcurrency: options.concurrency ?? 10,
        minPollingIntervalMs: options.pollingIntervalMs ?? QUEUE_POLLING_MS,
      };
      await launch(dbos, options.database, names, queue, wakeups).catch(async (error: unknown) => {
        log.close();
        await dbos.shutdown().catch(() => {});
        await wakeups.close();
        throw databaseError(error, options.database);
      });
      parts.write(wakeupsLine(executorId, wakeups, queue.minPollingIntervalMs));
    },
    () =>
      parts.write(
        `june: worker ${executorId} waits for another worker to finish setting up the database at ${safeUrl(options.database)}`,
      ),
  );
}

/**
 * Launches DBOS (recovering this executor's runs), creates June's tables of approval answers
 * (`june.answers`, see `AnswerStore`) and of runs' calls by place (`june.calls`, see
 * `CallRecords`; a run recovered at launch makes it on its first write), and registers the workflows' queues, each
 * polled as soon as the worker has it, and again as soon as one of this worker's runs of it
 * ends or a client enqueues a run on it, where the worker's wake-ups ({@link WorkerWakeups}) are on.
 */
async function launch(
  dbos: DbosSdk['DBOS'],
  database: string,
  names: string[],
  queue: { workerConcurrency: number; minPollingIntervalMs: number },
  wakeups: WorkerWakeups,
): Promise<void> {
  await wakeups.beforeLaunch();
  await dbos.launch();
  await answersTable(database);
  await wakeups.afterLaunch(database);
  for (const name of names)
    await dbos.registerQueue(queueName(name), { ...queue, onConflict: 'always_update' });
}

/** Creates June's tables (approval answers, calls by place) in the database DBOS just set up, unless they exist. */
async function answersTable(database: string): Promise<void> {
  const client = pgClient({ connectionString: database, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {}); // a connection lost fails the query instead
  try {
    await client.connect();
    await createAnswersTable(client);
    await createCallsTable(client);
    await createThreadsTable(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Refuses to start a worker that would recover runs of a workflow it does not have. */
async function checkInFlight(database: string, executorId: string, names: string[]): Promise<void> {
  const { DBOSClient } = await loadDbos();
  const client = await DBOSClient.create({ systemDatabaseUrl: database });
  try {
    const pending = await client
      .listWorkflows({ workflowName: RUN_WORKFLOW, status: 'PENDING', executorId, loadInput: true })
      .catch((error: unknown) => {
        const missingSchema =
          (error as { code?: unknown }).code === '42P01' ||
          (error as { code?: unknown }).code === '3D000';
        if (missingSchema) return []; // a new database: DBOS creates it on launch
        throw databaseError(error, database);
      });
    const lacking = new Set(
      pending
        .map((status) => (status.input?.[0] as QueuedRun | undefined)?.workflow)
        .filter((name): name is string => name !== undefined && !names.includes(name)),
    );
    if (lacking.size > 0) {
      const list = [...lacking].map((name) => `"${name}"`).join(', ');
      throw new WorkflowError(
        'dbos-worker-workflow-missing',
        `june: the worker ${executorId} has runs in flight of ${list}, which it was not given; start it with ${lacking.size === 1 ? 'that workflow' : 'those workflows'} too (nothing was started, and those runs are kept).`,
      );
    }
  } finally {
    await client.destroy();
  }
}
