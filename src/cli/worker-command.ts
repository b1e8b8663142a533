import { basename, extname } from 'node:path';
import { WorkflowError } from '../errors/index.js';
import type { CliIO } from './cli-io.js';
import { databaseWorker } from '../host/database-worker.js';
import { readPrices } from './prices-file.js';
import { cliRedaction, type RedactionFlags } from './cli-redaction.js';
import { quietDriver } from './quiet-driver.js';
import { ExitCode, type ExitCodeValue } from './exit-code.js';
import { loadWorkflow } from './load-workflow.js';
import { onStopSignals, stopSignals, type StopSignal } from './stop-signals.js';

/** How long a stopped worker lets its process end on its own before it exits anyway, in ms. */
const EXIT_LINGER_MS = 500;

/** The flags of `june worker`. */
export interface WorkerCommandOptions extends RedactionFlags {
  /** `--database`: the PostgreSQL URL of the runs. */
  database: string;
  /** `--concurrency`: runs at once per workflow. */
  concurrency?: string;
  /** `--polling-interval`: ms between polls of each workflow's queue. */
  pollingInterval?: string;
  /** `--executor`: this worker's executor id (a restarted worker with the same id recovers its runs). */
  executor?: string;
  /** `--no-wakeups`: `false` polls the queues on the timer alone (commander sets `true` otherwise). */
  wakeups?: boolean;
  /** `--prices`: a JSON file of prices of the worker's own, for every run it runs. */
  prices?: string;
}

/**
 * The name a workflow file's runs go by over a database (its queue): the file name without
 * its extension, so `june run flows/release.tsx --database ...` reaches workers started with
 * `june worker release.tsx` wherever the file lies.
 *
 * @example
 * ```ts
 * workflowNameOf('flows/release.tsx'); // 'release'
 * ```
 */
export function workflowNameOf(file: string): string {
  return basename(file, extname(file));
}

/**
 * `june worker <files...> --database <url>`: loads the workflows, starts a DBOS worker (it
 * recovers its runs in flight, then takes queued runs of those workflows) and runs until
 * SIGINT, SIGTERM or SIGHUP. A stop signal aborts the runs in flight (their tools' processes
 * end, their MCP servers close) and leaves them pending in the database for a worker
 * started again with the same `--executor`; the worker is gone within the runs' abort grace
 * (5 s). A signal while it starts stops it once started; a second signal quits at once,
 * ending every process its runs started. Every run it runs or recovers is redacted as
 * `june run` would redact it with the worker's `--redact-env`, `--redact-pattern` and
 * `--secret-props` and the run's own (its patterns and variable names, those variables read
 * here); `--secret-props` gives the values of the secret props a run names. What the
 * worker has to say (the database went away or came back, a run failed) is one `june:`
 * line each on stderr.
 *
 * @returns 0 once stopped by a signal (a second signal exits at once with 128 + the first
 *   signal's number: 130, 143 or 129); 1 when the worker stopped on its own because another
 *   worker took its executor id while it could not reach the database.
 * @throws {JuneError} `cli-workflow-missing` and the workflow load errors,
 *   `cli-option-invalid` (a bad `--concurrency` or `--polling-interval`, two files of one name, a `--redact-env`
 *   variable not set, a bad `--redact-pattern`, a `--prices` file that is not prices), `cli-props-invalid` (bad
 *   `--secret-props`), `dbos-missing`, `database-unreachable`, `database-auth-failed`,
 *   `dbos-worker-workflow-missing`, `dbos-executor-held` (a live worker holds the executor id:
 *   exit 2).
 */
export async function workerCommand(
  files: string[],
  options: WorkerCommandOptions,
  io: CliIO,
): Promise<ExitCodeValue> {
  const concurrency = wholeNumber('--concurrency', 'runs', options.concurrency);
  const pollingIntervalMs = wholeNumber('--polling-interval', 'ms', options.pollingInterval);
  const { secretProps, redact } = cliRedaction(options);
  const prices = options.prices === undefined ? undefined : readPrices(options.prices);
  quietDriver();
  const { startWorker, safeUrl } = await databaseWorker();
  const workflows = await workerWorkflows(files);
  let stopBy: StopSignal | undefined;
  let stopRequested: (() => void) | undefined;
  const stopWanted = new Promise<void>((resolve) => (stopRequested = resolve));
  const stopListening = onStopSignals((signal) => {
    // a second signal: quit now (every process group a run started is killed on exit)
    if (stopBy) process.exit(stopSignals[stopBy].exitCode);
    stopBy = signal;
    const what = signal === 'SIGINT' ? 'interrupted' : `${signal} received`;
    io.stderr.write(
      `june: ${what}; stopping the worker: its runs in flight are aborted here and stay pending for recovery (${signal === 'SIGINT' ? 'press Ctrl-C again' : 'signal again'} to quit at once)\n`,
    );
    stopRequested?.();
  });
  try {
    const worker = await startWorker({
      database: options.database,
      workflows,
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(pollingIntervalMs !== undefined ? { pollingIntervalMs } : {}),
      ...(options.executor !== undefined ? { executorId: options.executor } : {}),
      ...(redact ? { redact } : {}),
      ...(secretProps ? { secretProps } : {}),
      ...(prices ? { prices } : {}),
      // only when given: without the flag, JUNE_DBOS_WAKEUPS may still turn them off
      ...(options.wakeups === false ? { wakeups: false } : {}),
      log: (line) => io.stderr.write(`${line}\n`),
    });
    io.stdout.write(
      `june worker ${worker.executorId} · ${Object.keys(workflows).join(', ')} · ${safeUrl(options.database)}\n`,
    );
    // a signal, or the worker stopping on its own (its executor id taken by another worker)
    const byItself = await Promise.race([
      stopWanted.then(() => false),
      worker.stopped.then(() => true),
    ]);
    const { pending } = await worker.stop();
    io.stderr.write(`${stoppedLine(worker.executorId, pending)}\n`);
    const code = byItself ? ExitCode.failed : ExitCode.success;
    // what a run left behind (a timer of a tool that ignored its abort) does not keep the worker up
    setTimeout(() => process.exit(code), EXIT_LINGER_MS).unref();
    return code;
  } finally {
    stopListening();
  }
}

/**
 * A flag's whole number, 1 or more (`undefined` when the flag is not given).
 * @throws {WorkflowError} `cli-option-invalid` for anything else.
 */
function wholeNumber(flag: string, unit: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (Number.isInteger(n) && n > 0) return n;
  throw new WorkflowError(
    'cli-option-invalid',
    `june: ${flag} takes a whole number of ${unit}, 1 or more; got "${value}".`,
  );
}

/** The worker's last line: which runs it left pending, and who takes them up. */
function stoppedLine(executorId: string, pending: string[]): string {
  if (pending.length === 0) return `june: worker ${executorId} stopped`;
  const runs = pending.length === 1 ? `run ${pending[0]}` : `runs ${pending.join(', ')}`;
  return `june: worker ${executorId} stopped; ${runs} ${pending.length === 1 ? 'stays' : 'stay'} pending until a worker with --executor ${executorId} starts`;
}

/**
 * The worker's workflows by name (their file names), each with the `run` of the June copy
 * it imports.
 * @throws {WorkflowError} `cli-option-invalid` for two files of one name, and the workflow load errors
 */
async function workerWorkflows(
  files: string[],
): Promise<Record<string, { component: any; run: any }>> {
  const workflows: Record<string, { component: any; run: any }> = {};
  for (const file of files) {
    const name = workflowNameOf(file);
    if (workflows[name])
      throw new WorkflowError(
        'cli-option-invalid',
        `june: two workflow files are named "${name}"; runs find their workflow by file name, so give each its own.`,
      );
    const loaded = await loadWorkflow(file);
    workflows[name] = { component: loaded.component, run: loaded.june.run };
  }
  return workflows;
}
