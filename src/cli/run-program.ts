import { Option, type Command } from 'commander';
import { approveModes, type ApproveMode } from './approve-mode.js';
import type { CliIO } from './cli-io.js';
import type { ExitCodeValue } from './exit-code.js';
import { repeatedFlag } from './repeated-flag.js';

/** The flags `june run` parses (see `RunCommandOptions`). */
type RunCommandFlags = {
  props?: string;
  script?: string;
  approve: ApproveMode;
  trace?: string;
  json?: boolean;
  resume?: string;
  waitForOwner?: boolean;
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

/** `june run`'s flags after `--approve`, in the order `--help` lists them: flag, then what it does. */
const runFlags: ReadonlyArray<readonly [flags: string, description: string]> = [
  ['--trace <file>', 'also write the trace to this file'],
  [
    '--json',
    "print each run event as one line of JSON (no prompts); model answers come whole, a turn's text as one text-delta",
  ],
  [
    '--no-stream',
    "take each model answer whole instead of token by token (the provider's non-streaming call; costs less)",
  ],
  [
    '--resume <runId>',
    'take up a stopped run again from its journal (.june/runs/<runId>/journal.jsonl): nothing that finished runs again',
  ],
  [
    '--wait-for-owner',
    'with --resume: when another process runs that run, wait for it to let go instead of failing',
  ],
  [
    '--replay <runId|file>',
    'answer every model call from a recorded journal (a run id, or a journal.jsonl file)',
  ],
  [
    '--strict',
    'fail the run on a workflow error at any depth (even one a model saw as a tool error) and on --script turns that never ran',
  ],
  [
    '--database <url>',
    'enqueue the run for june worker processes sharing this PostgreSQL database, instead of running it here',
  ],
  [
    '--follow',
    'with --database: show the run as it goes from whichever worker runs it (Ctrl-C stops following, not the run)',
  ],
  [
    '--secret-props <json|@file>',
    'props whose values are secrets, merged over --props: never stored in clear (the journal keeps [redacted]; pass them again to --resume)',
  ],
];

/** `june run`'s telemetry flags, after the repeatable redaction ones. */
const otelFlags: ReadonlyArray<readonly [flags: string, description: string]> = [
  [
    '--otel',
    'export the run as OpenTelemetry spans over OTLP/HTTP, set up from OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS and OTEL_SERVICE_NAME',
  ],
  [
    '--otel-record-inputs',
    'with --otel: put step prompts and tool inputs on the spans (redacted as the run is)',
  ],
  [
    '--otel-record-outputs',
    'with --otel: put step results and tool outputs on the spans (redacted as the run is)',
  ],
];

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
    .argument('<file>', 'the workflow, a .tsx file whose default export is a component')
    .option('--props <json>', 'props for the root component, as a JSON object')
    .option('--script <file>', 'answer every model call from this model script (offline)')
    .addOption(
      new Option(
        '--approve <mode>',
        'approval requests: ask at the terminal, approve all, deny all, studio (answer them in June Studio), or wait (leave them pending, to --resume or answer in Studio later)',
      )
        .choices(approveModes)
        .default('ask'),
    );
  for (const [flags, description] of runFlags) command.option(flags, description);
  command
    .option(
      '--redact-env <name>',
      'keep the value of this environment variable out of the trace, journal and output (repeatable)',
      repeatedFlag,
      [],
    )
    .option(
      '--redact-pattern <regex>',
      'keep every match of this regular expression out of the trace, journal and output (repeatable)',
      repeatedFlag,
      [],
    );
  for (const [flags, description] of otelFlags) command.option(flags, description);
  command.action(async (file: string, options: RunCommandFlags) => {
    if (options.database !== undefined) {
      const { databaseRunCommand } = await import('./database-run-command.js');
      done(await databaseRunCommand(file, { ...options, database: options.database }, io));
      return;
    }
    const { runCommand } = await import('./run-command.js');
    done(await runCommand(file, options, io));
  });
}
