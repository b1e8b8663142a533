import { Option, type Command } from 'commander';
import { WorkflowError } from '../errors/index.js';
import { runFlags, type RunFlag, type RunFlagValues } from '../host/run-flags.js';
import type { CliIO } from './cli-io.js';
import type { ExitCodeValue } from './exit-code.js';
import { repeatedFlag } from './repeated-flag.js';

/** commander's option for one flag of `june run`'s table. */
export function runOption(flag: RunFlag): Option {
  const option = new Option(flag.flags, flag.description);
  if (flag.choices) option.choices(flag.choices);
  if (flag.default !== undefined) option.default(flag.default);
  if (flag.kind === 'values') option.argParser(repeatedFlag).default([]);
  return option;
}

/**
 * Adds `june run`'s flags ({@link runFlags}, in order) to `command`: what it parses is a
 * {@link RunFlagValues}, `--approve` defaulting to `ask` and each repeatable flag to `[]`.
 */
export function addRunFlags(command: Command): Command {
  for (const flag of runFlags as readonly RunFlag[]) command.addOption(runOption(flag));
  return command;
}

/**
 * Adds `june run <file>` to the `june` program: a local run (`runCommand`), or with
 * `--database` one enqueued for the workers (`databaseRunCommand`). Each loads its module
 * when it runs.
 */
export function addRunCommand(
  program: Command,
  io: CliIO,
  done: (code: ExitCodeValue) => void,
): void {
  const command = program
    .command('run')
    .description(
      'Run a workflow: its default export, with progress, approvals at the terminal, and a trace in .june/runs/.',
    )
    .argument('<file>', 'the workflow, a .tsx file whose default export is a component');
  addRunFlags(command);
  command.action(async (file: string, options: RunFlagValues) => {
    if (options.database !== undefined) {
      refuseLocalJournalFlags(options);
      refusePricesFlag(options);
      refuseOtelFlags(options);
      const { databaseRunCommand } = await import('./database-run-command.js');
      done(await databaseRunCommand(file, { ...options, database: options.database }, io));
      return;
    }
    const { runCommand } = await import('./run-command.js');
    done(await runCommand(file, options, io));
  });
}

/**
 * Refuses `--database` with `--prices`: a run enqueued for the workers is priced where it
 * runs, by the worker's own `prices`.
 * @throws {WorkflowError} `cli-option-invalid`
 */
function refusePricesFlag(options: RunFlagValues): void {
  if (options.prices === undefined) return;
  throw new WorkflowError(
    'cli-option-invalid',
    "june: --prices prices the model calls of a run in this process, and --database enqueues a run for the workers, which price its calls with the worker's own prices; leave out --prices.",
  );
}

/**
 * Refuses `--database` with `--otel` (or a flag that implies it): a run enqueued for the
 * workers exports its spans from the worker that runs it, with the OpenTelemetry set-up
 * loaded there (docs/observability.md), never from this process.
 * @throws {WorkflowError} `cli-option-invalid`
 */
function refuseOtelFlags(options: RunFlagValues): void {
  const flag = options.otel
    ? '--otel'
    : options.otelRecordInputs
      ? '--otel-record-inputs'
      : options.otelRecordOutputs
        ? '--otel-record-outputs'
        : undefined;
  if (flag === undefined) return;
  throw new WorkflowError(
    'cli-option-invalid',
    `june: ${flag} exports the spans of a run in this process, and --database enqueues a run for the workers, which export its spans themselves with an OpenTelemetry set-up loaded in the worker (NODE_OPTIONS="--import ./otel-setup.mjs" june worker …); leave out ${flag}.`,
  );
}

/** The flags that read or replay a journal of this machine's `.june/runs`, which a run enqueued for the workers never reads. */
const localJournalFlags = [
  ['resume', '--resume'],
  ['waitForOwner', '--wait-for-owner'],
  ['replay', '--replay'],
  ['replayTools', '--replay-tools'],
] as const;

/**
 * Refuses `--database` with a flag it would silently leave out: a replay (whose tools would
 * then run for real) or a resume of a local journal.
 * @throws {WorkflowError} `cli-option-invalid`
 */
function refuseLocalJournalFlags(options: RunFlagValues): void {
  for (const [key, flag] of localJournalFlags) {
    if (options[key] === undefined || options[key] === false) continue;
    throw new WorkflowError(
      'cli-option-invalid',
      `june: ${flag} reads a journal in .june/runs here, and --database enqueues a run for the workers, which never reads it; leave out one of them (june approve, june runs and june cancel work on runs in the database).`,
    );
  }
}
