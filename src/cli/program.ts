import { Command, CommanderError, Option } from 'commander';
import { approveModes, type ApproveMode } from './approve-mode.js';
import type { CliIO } from './cli-io.js';
import { ExitCode, exitCodeOf, type ExitCodeValue } from './exit-code.js';
import { oneLine } from './format.js';
import { packageVersion } from './package-version.js';
import { visibleText } from './visible-text.js';
import { addDatabaseCommands } from './database-program.js';

/**
 * Runs the `june` command line and returns its exit code (it never calls `process.exit`
 * itself): 0 success, 1 a workflow that failed to load or run, 2 bad usage, 130 Ctrl-C.
 * Every error is one line on stderr starting with `june: `.
 *
 * @param argv - the arguments after the program name, e.g. `['run', 'release.tsx', '--approve', 'all']`.
 * @example
 * ```ts
 * process.exitCode = await main(process.argv.slice(2), processIO());
 * ```
 */
export async function main(argv: string[], io: CliIO): Promise<ExitCodeValue> {
  let code: ExitCodeValue = ExitCode.success;
  const program = createProgram(io, (result) => {
    code = result;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError)
      return error.exitCode === 0 ? ExitCode.success : ExitCode.usage;
    const message = visibleText(oneLine(error instanceof Error ? error.message : String(error)));
    io.stderr.write(`${message.startsWith('june: ') ? message : `june: ${message}`}\n`);
    return exitCodeOf(error);
  }
}

/**
 * The `june` program (commander): `init`, `run`, `inspect` and `studio`. Errors in flags throw a
 * `CommanderError` (after one `june: ` line on stderr) instead of exiting; each command's
 * exit code goes to `done`.
 *
 * @example
 * ```ts
 * const program = createProgram(processIO(), (code) => (process.exitCode = code));
 * await program.parseAsync(['inspect', 'examples/release.tsx'], { from: 'user' });
 * ```
 */
export function createProgram(io: CliIO, done: (code: ExitCodeValue) => void): Command {
  // Commands load their modules (the interpreter, the AI SDK, tsx, prompts) when they run,
  // so --help, --version and a mistyped flag answer at once.
  const program = new Command('june')
    .description('Run AI agent workflows written as JSX.')
    .version(packageVersion(), '-v, --version')
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) =>
        write(`${sentence(oneLine(text.replace(/^error: /, 'june: ')))} See june --help.\n`),
    });

  // Subcommands made with .command() inherit exitOverride() and the output settings above.
  program
    .command('init')
    .description(
      "Set up a June project: tsconfig.json and vitest.config.ts with June's JSX settings, a first workflow with its model script, and a snapshot test. Never overwrites a file.",
    )
    .argument('[dir]', 'the project folder (default: the current one)')
    .action(async (dir: string | undefined) => {
      const { initCommand } = await import('./init-command.js');
      done(await initCommand(dir, io));
    });

  program
    .command('run')
    .description(
      'Run a workflow: its default export, with progress, approvals at the terminal, and a trace in .june/runs/.',
    )
    .argument('<file>', 'the workflow, a .tsx file whose default export is a component')
    .option('--props <json>', 'props for the root component, as a JSON object')
    .option('--script <file>', 'answer every model call from this model script (offline)')
    .addOption(
      new Option(
        '--approve <mode>',
        'approval requests: ask at the terminal, approve all, deny all, or wait (leave them pending, to --resume later)',
      )
        .choices(approveModes)
        .default('ask'),
    )
    .option('--trace <file>', 'also write the trace to this file')
    .option(
      '--json',
      "print each run event as one line of JSON (no prompts); model answers come whole, a turn's text as one text-delta",
    )
    .option(
      '--no-stream',
      "take each model answer whole instead of token by token (the provider's non-streaming call; costs less)",
    )
    .option(
      '--resume <runId>',
      'take up a stopped run again from its journal (.june/runs/<runId>/journal.jsonl): nothing that finished runs again',
    )
    .option(
      '--replay <runId|file>',
      'answer every model call from a recorded journal (a run id, or a journal.jsonl file)',
    )
    .option(
      '--strict',
      'fail the run on a workflow error at any depth (even one a model saw as a tool error) and on --script turns that never ran',
    )
    .option(
      '--database <url>',
      'enqueue the run for june worker processes sharing this PostgreSQL database, instead of running it here',
    )
    .option(
      '--follow',
      'with --database: show the run as it goes from whichever worker runs it (Ctrl-C stops following, not the run)',
    )
    .option(
      '--secret-props <json|@file>',
      'props whose values are secrets, merged over --props: never stored in clear (the journal keeps [redacted]; pass them again to --resume)',
    )
    .option(
      '--redact-env <name>',
      'keep the value of this environment variable out of the trace, journal and output (repeatable)',
      collect,
      [],
    )
    .option(
      '--redact-pattern <regex>',
      'keep every match of this regular expression out of the trace, journal and output (repeatable)',
      collect,
      [],
    )
    .option(
      '--otel',
      'export the run as OpenTelemetry spans over OTLP/HTTP, set up from OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS and OTEL_SERVICE_NAME',
    )
    .option(
      '--otel-record-inputs',
      'with --otel: put step prompts and tool inputs on the spans (redacted as the run is)',
    )
    .option(
      '--otel-record-outputs',
      'with --otel: put step results and tool outputs on the spans (redacted as the run is)',
    )
    .action(async (file: string, options: RunCommandFlags) => {
      if (options.database !== undefined) {
        const { databaseRunCommand } = await import('./database-run-command.js');
        done(await databaseRunCommand(file, { ...options, database: options.database }, io));
        return;
      }
      const { runCommand } = await import('./run-command.js');
      done(await runCommand(file, options, io));
    });

  addDatabaseCommands(program, io, done);

  program
    .command('inspect')
    .description(
      "Show every agent's tools: where each came from and whether it needs approval. No model is called.",
    )
    .argument('<file>', 'the workflow, a .tsx file whose default export is a component')
    .option('--props <json>', 'props for the root component, as a JSON object')
    .option('--json', 'print the report as JSON')
    .action(async (file: string, options: { props?: string; json?: boolean }) => {
      const { inspectCommand } = await import('./inspect-command.js');
      done(await inspectCommand(file, options, io));
    });

  // June Studio lives in src/studio; studio-command.ts loads it when the command runs.
  program
    .command('studio')
    .description(
      'Serve June Studio on 127.0.0.1: the runs in .june/runs/, their trace trees, and an agent inspector.',
    )
    .argument('[dir]', 'the folder of run traces (default: .june/runs)')
    .option('--port <port>', 'the TCP port; 0 picks a free one (default: 4000)')
    .option(
      '--host <host>',
      'the address to listen on (default: 127.0.0.1); beyond loopback, Studio prints an access token',
    )
    .option(
      '--allow-host <name>',
      'another host name requests may address, e.g. the DNS name Studio is reached by (repeatable)',
      (name: string, names: string[] = []) => [...names, name],
    )
    .action(
      async (
        dir: string | undefined,
        options: { port?: string; host?: string; allowHost?: string[] },
      ) => {
        const { studioCommand } = await import('./studio-command.js');
        done(await studioCommand(dir, options, io));
      },
    );

  return program;
}

/** The flags `june run` parses (see `RunCommandOptions`). */
type RunCommandFlags = {
  props?: string;
  script?: string;
  approve: ApproveMode;
  trace?: string;
  json?: boolean;
  resume?: string;
  replay?: string;
  strict?: boolean;
  database?: string;
  follow?: boolean;
  secretProps?: string;
  redactEnv: string[];
  redactPattern: string[];
  otel?: boolean;
  otelRecordInputs?: boolean;
  otelRecordOutputs?: boolean;
};

/** Collects a repeatable flag's values. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Ends a message with a full stop unless it ends with one, or with a closing parenthesis. */
function sentence(text: string): string {
  return /[.)]$/.test(text) ? text : `${text}.`;
}
