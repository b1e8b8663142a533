import { InvalidArgumentError, type Command } from 'commander';
import type { CliIO } from './cli-io.js';
import type { ExitCodeValue } from './exit-code.js';
import type { ApproveCommandOptions, RunHostFlags } from './run-commands.js';
import type { WorkerCommandOptions } from './worker-command.js';
import { repeatedFlag } from './repeated-flag.js';

/**
 * Adds the commands of runs kept outside `june run`'s own process to the `june` program:
 * `worker` (runs over a database, DBOS on PostgreSQL), and `approve`, `runs` and `cancel`,
 * which work on a run host (the runs folder, or a database with `--database`), and `threads`
 * (the runs folder's threads). Each loads its module when it runs.
 */
export function addDatabaseCommands(program: Command, io: CliIO, done: Done): void {
  addWorkerCommand(program, io, done);
  addApproveCommand(program, io, done);
  addRunsCommand(program, io, done);
  addCancelCommand(program, io, done);
  addThreadsCommand(program, io, done);
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
      '--no-wakeups',
      "poll the queues on the timer alone: no wake-ups when a run is enqueued or ends (they reach into DBOS's queue scheduler, and are used only on the DBOS versions June was tested on; JUNE_DBOS_WAKEUPS=off does the same)",
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
      '--prices <file>',
      'prices of your own from a JSON file, in USD per million tokens by "<provider>:<model id>", for the model calls of every run this worker runs, before the bundled price catalog',
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

/** The flags every run command takes to pick its host (`openRunHost`). */
function hostFlags(command: Command): Command {
  return command
    .option(
      '--database <url>',
      'the PostgreSQL URL of runs over a database (june worker --database)',
    )
    .option('--dir <dir>', 'the runs folder, without --database (default: .june/runs)');
}

/**
 * `june approve <runId> [requestId]`. The arguments are checked before a host is opened,
 * run id first, so a bare `june approve` says where ids come from.
 */
function addApproveCommand(program: Command, io: CliIO, done: Done): void {
  hostFlags(
    program
      .command('approve')
      .description(
        'Answer the approval requests a run waits for: a run of .june/runs (a stopped one resumes) or of a database, from any machine.',
      )
      .usage('<runId> [requestId] [--all] [options]')
      .argument('[runId]', 'the run (june runs lists them)')
      .argument('[requestId]', 'the request (june runs lists the waiting ones)'),
  )
    .option('--all', 'every request of the run that waits')
    .option('--deny', 'deny instead of approve')
    .option('--reason <text>', 'with --deny: the reason the model sees')
    .option('--input <json>', "approve, running the call with this input instead of the model's")
    .option(
      '--answer <json>',
      'answer a question, or answer instead of the tool (which then does not run): the model reads this JSON value',
    )
    .action(
      async (
        runId: string | undefined,
        requestId: string | undefined,
        options: ApproveCommandOptions,
      ) => {
        const { approveCommand, approveRequest, withRunHost } = await import('./run-commands.js');
        const request = approveRequest(runId, requestId, options);
        done(await withRunHost(options, (host) => approveCommand(host, io, request)));
      },
    );
}

/** `june runs`. */
function addRunsCommand(program: Command, io: CliIO, done: Done): void {
  hostFlags(
    program
      .command('runs')
      .description(
        'List the runs of .june/runs or of a database: state, worker, the approvals they wait for.',
      ),
  )
    .option('--json', 'one JSON object per run')
    .option('--limit <n>', 'at most this many runs, newest first (default: 50)', runsLimit)
    .action(async (options: RunHostFlags & { json?: boolean; limit?: number }) => {
      const { runsCommand, withRunHost } = await import('./run-commands.js');
      const { limit } = options;
      done(
        await withRunHost(options, (host) =>
          runsCommand(host, io, {
            ...(options.json ? { json: true } : {}),
            ...(limit !== undefined ? { limit } : {}),
          }),
        ),
      );
    });
}

/**
 * `june runs --limit`: a whole number of runs, 1 or more.
 * @throws {InvalidArgumentError} for anything else (a usage error: exit 2, with one `june:` line)
 */
function runsLimit(value: string): number {
  if (/^\d+$/.test(value) && Number(value) > 0) return Number(value);
  throw new InvalidArgumentError('--limit takes a whole number of runs, 1 or more.');
}

/** `june cancel <runId>`. */
function addCancelCommand(program: Command, io: CliIO, done: Done): void {
  hostFlags(
    program
      .command('cancel')
      .description(
        "Cancel a run of .june/runs (its live process stops) or of a database (its worker aborts it): the running tool's abort signal fires.",
      )
      .argument('<runId>', 'the run'),
  ).action(async (runId: string, options: RunHostFlags) => {
    const { cancelCommand, withRunHost } = await import('./run-commands.js');
    done(await withRunHost(options, (host) => cancelCommand(host, io, runId, options)));
  });
}

/** `june threads`, `june threads show <id>`, `june threads delete <id>`. */
function addThreadsCommand(program: Command, io: CliIO, done: Done): void {
  type Flags = { dir?: string; database?: string; json?: boolean };
  const database = [
    '--database <url>',
    'the PostgreSQL URL of runs over a database (june worker --database): its threads',
  ] as const;
  const threads = program
    .command('threads')
    .description(
      'List the threads of .june/runs or of a database (june run --thread): each with its runs, in order.',
    )
    .option('--dir <folder>', 'the runs folder (default: .june/runs)')
    .option(...database)
    .option('--json', 'as JSON')
    .action(async (options: Flags) => {
      const { threadsCommand } = await import('./threads-command.js');
      done(await threadsCommand(io, options));
    });
  threads
    .command('show')
    .description("A thread's runs in order, and the conversation its next run starts from.")
    .argument('<id>', 'the thread')
    .option('--dir <folder>', 'the runs folder (default: .june/runs)')
    .option(...database)
    .option('--json', 'as JSON')
    .action(async (id: string, options: Flags) => {
      const { threadShowCommand } = await import('./threads-command.js');
      done(await threadShowCommand(io, id, { ...threads.opts<Flags>(), ...options }));
    });
  threads
    .command('delete')
    .description(
      "Delete a thread: its runs' journals and traces (so their resume and replay too) and its index, or its runs in a database. Refused while a run of it runs.",
    )
    .argument('<id>', 'the thread')
    .option('--dir <folder>', 'the runs folder (default: .june/runs)')
    .option(...database)
    .option('--json', 'as JSON')
    .action(async (id: string, options: Flags) => {
      const { threadDeleteCommand } = await import('./threads-command.js');
      done(await threadDeleteCommand(io, id, { ...threads.opts<Flags>(), ...options }));
    });
}
