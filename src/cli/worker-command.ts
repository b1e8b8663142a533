import { basename, extname } from 'node:path';
import { WorkflowError } from '../errors/index.js';
import type { CliIO } from './cli-io.js';
import { cliRedaction, type RedactionFlags } from './cli-redaction.js';
import { quietDriver } from './database-commands.js';
import { ExitCode, type ExitCodeValue } from './exit-code.js';
import { loadWorkflow } from './load-workflow.js';
import { onStopSignals } from './stop-signals.js';

/** The flags of `june worker`. */
export interface WorkerCommandOptions extends RedactionFlags {
  /** `--database`: the PostgreSQL URL of the runs. */
  database: string;
  /** `--concurrency`: runs at once per workflow. */
  concurrency?: string;
  /** `--executor`: this worker's executor id (a restarted worker with the same id recovers its runs). */
  executor?: string;
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
 * SIGINT/SIGTERM. Every run it runs or recovers is redacted as `june run` would redact it
 * with the worker's `--redact-env`, `--redact-pattern` and `--secret-props` and the run's
 * own (its patterns and variable names, those variables read here); `--secret-props` gives
 * the values of the secret props a run names.
 *
 * @returns 0 once stopped by a signal.
 * @throws {JuneError} `cli-workflow-missing` and the workflow load errors,
 *   `cli-option-invalid` (a bad `--concurrency`, two files of one name, a `--redact-env`
 *   variable not set, a bad `--redact-pattern`), `cli-props-invalid` (bad
 *   `--secret-props`), `dbos-missing`, `database-unreachable`, `database-auth-failed`,
 *   `dbos-worker-workflow-missing`.
 */
export async function workerCommand(
  files: string[],
  options: WorkerCommandOptions,
  io: CliIO,
): Promise<ExitCodeValue> {
  const concurrency = options.concurrency === undefined ? undefined : Number(options.concurrency);
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0))
    throw new WorkflowError(
      'cli-option-invalid',
      `june: --concurrency takes a whole number of runs, 1 or more; got "${options.concurrency}".`,
    );
  const { secretProps, redact } = cliRedaction(options);
  quietDriver();
  const { startWorker, safeUrl } = await import('../dbos/cli-support.js');
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
  const worker = await startWorker({
    database: options.database,
    workflows,
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(options.executor !== undefined ? { executorId: options.executor } : {}),
    ...(redact ? { redact } : {}),
    ...(secretProps ? { secretProps } : {}),
  });
  io.stdout.write(
    `june worker ${worker.executorId} · ${Object.keys(workflows).join(', ')} · ${safeUrl(options.database)}\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = onStopSignals(() => {
      stop();
      resolve();
    });
  });
  await worker.stop();
  return ExitCode.success;
}
