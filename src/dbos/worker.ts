import { hostname } from 'node:os';
import { WorkflowError } from '../errors/index.js';
import type { RedactOptions } from '../redaction/redactor.js';
import { databaseError } from './database-error.js';
import { probeDatabase } from './database-probe.js';
import { loadDbos } from './load-dbos.js';
import { APPLICATION, APPLICATION_VERSION, RUN_WORKFLOW, queueName } from './names.js';
import type { QueuedRun } from './queued-run.js';
import { registerRunWorkflow, type WorkerWorkflow } from './run-workflow.js';

/** Options of {@link startWorker}. */
export interface WorkerOptions {
  /** The PostgreSQL URL every worker and client shares (`postgresql://user:pass@host:5432/june`). */
  database: string;
  /** The workflows this worker runs, by name (`june worker` names them by file: `release` for `release.tsx`). */
  workflows: Record<string, WorkerWorkflow>;
  /** How many runs this worker runs at once, per workflow. @default 10 */
  concurrency?: number;
  /**
   * The worker's executor id: a worker started again with the same id recovers the runs it
   * had in flight. Give each worker its own. @default `DBOS__VMID`, else the host name
   */
  executorId?: string;
  /** DBOS's log level (`error`, `warn`, `info`, `debug`). @default 'warn' */
  logLevel?: string;
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
}

/** A running worker. */
export interface JuneWorker {
  readonly executorId: string;
  /** Stops taking runs and disconnects (runs in flight stay pending, for recovery). */
  stop(): Promise<void>;
}

/**
 * Starts a worker in this process (one per process: DBOS is process-wide): registers June's
 * run workflow, recovers the runs this executor id had in flight, and takes queued runs of
 * its workflows.
 *
 * @throws {SystemError} `dbos-missing`, `database-unreachable`, `database-auth-failed`.
 * @throws {WorkflowError} `dbos-worker-workflow-missing` when this executor id has runs in
 *   flight of a workflow it was not given (nothing is started, nothing is lost).
 * @example
 * ```ts
 * const worker = await startWorker({ database: process.env.DATABASE_URL!, workflows: { release: Release } });
 * ```
 */
export async function startWorker(options: WorkerOptions): Promise<JuneWorker> {
  const { DBOS } = await loadDbos();
  const executorId = options.executorId ?? process.env.DBOS__VMID ?? hostname();
  const names = Object.keys(options.workflows);
  await checkInFlight(options.database, executorId, names);
  DBOS.setConfig({
    name: APPLICATION,
    systemDatabaseUrl: options.database,
    executorID: executorId,
    applicationVersion: APPLICATION_VERSION,
    listenQueues: names.map(queueName),
    logLevel: options.logLevel ?? 'warn',
  });
  // the worker's redaction and secret props (WorkerSecrets) for every run it takes
  registerRunWorkflow(DBOS, new Map(Object.entries(options.workflows)), options);
  try {
    await DBOS.launch();
    for (const name of names)
      await DBOS.registerQueue(queueName(name), {
        workerConcurrency: options.concurrency ?? 10,
        minPollingIntervalMs: 200,
        onConflict: 'always_update',
      });
  } catch (error) {
    await DBOS.shutdown().catch(() => {});
    throw databaseError(error, options.database);
  }
  return { executorId, stop: () => DBOS.shutdown() };
}

/** Refuses to start a worker that would recover runs of a workflow it does not have. */
async function checkInFlight(database: string, executorId: string, names: string[]): Promise<void> {
  const { DBOSClient } = await loadDbos();
  await probeDatabase(database, true);
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
