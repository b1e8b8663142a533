import type { Command } from 'commander';
import type { CliIO } from './cli-io.js';
import type { ExitCodeValue } from './exit-code.js';
import type { ApproveCommandOptions } from './database-commands.js';
import type { WorkerCommandOptions } from './worker-command.js';
import { repeatedFlag } from './repeated-flag.js';

/**
 * Adds the commands of runs over a database (DBOS on PostgreSQL) to the `june` program:
 * `worker`, `approve`, `runs` and `cancel`. Each loads its module when it runs.
 */
export function addDatabaseCommands(program: Command, io: CliIO, done: Done): void {
  addWorkerCommand(program, io, done);
  addApproveCommand(program, io, done);
  addRunsCommand(program, io, done);
  addCancelCommand(program, io, done);
}

type Done = (code: ExitCodeValue) => void;

/** `june worker <files...> --database <url>`. */
function addWorkerCommand(program: Command, io: CliIO, done: Done): void {
  program
    .command('worker')
    .description(
      'Run queued runs of these workflows from a PostgreSQL database (DBOS): any number of workers on any machines share one database.',
    )
    .argument(
      '<files...>',
      'the workflows this worker runs (.tsx files; runs name them by file name)',
    )
    .requiredOption(
      '--database <url>',
      'the PostgreSQL URL the workers and june run --database share',
    )
    .option('--concurrency <n>', 'runs at once, per workflow (default: 10)')
    .option(
      '--polling-interval <ms>',
      "ms between this worker's polls of each workflow's queue when nothing wakes it (a run enqueued by June, or one of its runs ending, does) (default: 50)",
    )
    .option(
      '--executor <id>',
      "this worker's id, held while it runs (a second live worker with it is refused): started again with the same id it recovers its runs in flight; give each worker on a machine its own (default: DBOS__VMID, else the host name)",
    )
    .option(
      '--secret-props <json|@file>',
      'the values of secret props: a run enqueued with --secret-props names them and gets them here (never stored in clear)',
    )
    .option(
      '--redact-env <name>',
      "keep the value of this environment variable out of every run's records and output, besides each run's own redaction (repeatable)",
      repeatedFlag,
      [],
    )
    .option(
      '--redact-pattern <regex>',
      "keep every match of this regular expression out of every run's records and output, besides each run's own redaction (repeatable)",
      repeatedFlag,
      [],
    )
    .action(async (files: string[], options: WorkerCommandOptions) => {
      const { workerCommand } = await import('./worker-command.js');
      done(await workerCommand(files, options, io));
    });
}

/**
 * `june approve <runId> [requestId] --database <url>`. The run id and `--database` are
 * checked by `approveCommand`, run id first, so a bare `june approve` says where ids come from.
 */
function addApproveCommand(program: Command, io: CliIO, done: Done): void {
  program
    .command('approve')
    .description('Answer approval requests of a run in a database, from any machine.')
    .usage('<runId> [requestId] --database <url> [options]')
    .argument('[runId]', 'the run (june runs --database <url> lists them)')
    .argument('[requestId]', 'the request (june runs lists the waiting ones)')
    .option('--database <url>', 'the PostgreSQL URL of the runs')
    .option('--all', 'every request of the run that waits')
    .option('--deny', 'deny instead of approve')
    .option('--reason <text>', 'with --deny: the reason the model sees')
    .option('--input <json>', "approve, running the call with this input instead of the model's")
    .option('--answer <json>', 'answer instead of the tool: it does not run, the model reads this')
    .action(
      async (
        runId: string | undefined,
        requestId: string | undefined,
        options: ApproveCommandOptions,
      ) => {
        const { approveCommand } = await import('./database-commands.js');
        done(await approveCommand(runId, requestId, options, io));
      },
    );
}

/** `june runs --database <url>`. */
function addRunsCommand(program: Command, io: CliIO, done: Done): void {
  program
    .command('runs')
    .description('List the runs in a database: status, worker, waiting approvals.')
    .requiredOption('--database <url>', 'the PostgreSQL URL of the runs')
    .option('--json', 'one JSON object per run')
    .option('--limit <n>', 'at most this many runs, newest first (default: 50)')
    .action(async (options: { database: string; json?: boolean; limit?: string }) => {
      const { runsCommand } = await import('./database-commands.js');
      done(await runsCommand(options, io));
    });
}

/** `june cancel <runId> --database <url>`. */
function addCancelCommand(program: Command, io: CliIO, done: Done): void {
  program
    .command('cancel')
    .description(
      "Cancel a run in a database: its worker aborts it (the running tool's abort signal fires).",
    )
    .argument('<runId>', 'the run')
    .requiredOption('--database <url>', 'the PostgreSQL URL of the runs')
    .action(async (runId: string, options: { database: string }) => {
      const { cancelCommand } = await import('./database-commands.js');
      done(await cancelCommand(runId, options, io));
    });
}
