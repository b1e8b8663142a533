import { Command, CommanderError } from 'commander';
import type { CliIO } from './cli-io.js';
import { ExitCode, exitCodeOf, type ExitCodeValue } from './exit-code.js';
import { oneLine } from './format.js';
import { packageVersion } from './package-version.js';
import { visibleText } from './visible-text.js';
import { addDatabaseCommands } from './database-program.js';
import { addEvalsCommand } from './evals-program.js';
import { addRunCommand } from './run-program.js';
import { addForkCommand } from './fork-program.js';
import { addTryToolCommand } from './try-tool-program.js';
import { errorMessage } from '../errors/error-message.js';

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
    const message = visibleText(oneLine(errorMessage(error)));
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
    });

  // Subcommands made with .command() inherit exitOverride() and the output settings above;
  // pointToOwnHelp then ends each one's usage errors with its own help.
  addInitCommand(program, io, done);
  addRunCommand(program, io, done);
  addForkCommand(program, io, done);
  addDatabaseCommands(program, io, done);
  addInspectCommand(program, io, done);
  addTryToolCommand(program, io, done);
  addStudioCommand(program, io, done);
  addEvalsCommand(program, io, done);
  addDevCommand(program, io, done);
  addServeCommand(program, io, done);
  pointToOwnHelp(program);
  return program;
}

/**
 * A usage error ends with the help of the command it is in: `See june threads show --help.`
 * for a bad `june threads show`, `See june --help.` for an unknown command.
 */
function pointToOwnHelp(command: Command, path = command.name()): void {
  command.configureOutput({
    outputError: (text, write) =>
      write(`${sentence(oneLine(text.replace(/^error: /, 'june: ')))} See ${path} --help.\n`),
  });
  for (const sub of command.commands) pointToOwnHelp(sub, `${path} ${sub.name()}`);
}

/** `june init [dir]`. */
function addInitCommand(program: Command, io: CliIO, done: Done): void {
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
}

/** `june inspect <file>`. */
function addInspectCommand(program: Command, io: CliIO, done: Done): void {
  program
    .command('inspect')
    .description(
      "Show every agent's tools: where each came from and whether it needs approval. No model is called.",
    )
    .argument('<file>', 'the workflow, a .tsx file whose default export is a component')
    .option('--props <json>', 'props for the root component, as a JSON object')
    .option('--json', 'print the report as JSON')
    .option(
      '--details',
      "add where each agent and tool is declared (file:line:column) and each tool's input schema (in --json)",
    )
    .action(
      async (file: string, options: { props?: string; json?: boolean; details?: boolean }) => {
        const { inspectCommand } = await import('./inspect-command.js');
        done(await inspectCommand(file, options, io));
      },
    );
}

/** `june studio [dir]`: June Studio lives in src/studio; studio-command.ts loads it when the command runs. */
function addStudioCommand(program: Command, io: CliIO, done: Done): void {
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
    .option(
      '--database <url>',
      "show the runs of this PostgreSQL database (june worker --database) instead of dir's, and answer their approvals through it",
    )
    .action(
      async (
        dir: string | undefined,
        options: { port?: string; host?: string; allowHost?: string[]; database?: string },
      ) => {
        const { studioCommand } = await import('./studio-command.js');
        done(await studioCommand(dir, options, io));
      },
    );
}

/** `june dev [paths...]`: dev-command.ts loads the workflows and Studio when the command runs. */
function addDevCommand(program: Command, io: CliIO, done: Done): void {
  program
    .command('dev')
    .description(
      "Serve June Studio with the project's workflows: each one's capability map before any run, updated on every save.",
    )
    .argument('[paths...]', 'workflow files or folders of the project (default: the whole project)')
    .option('--port <port>', 'the TCP port; 0 picks a free one (default: 4000)')
    .option(
      '--host <host>',
      'the address to listen on (default: 127.0.0.1); beyond loopback, Studio prints an access token',
    )
    .option(
      '--allow-host <name>',
      'another host name requests may address (repeatable)',
      (name: string, names: string[] = []) => [...names, name],
    )
    .action(
      async (paths: string[], options: { port?: string; host?: string; allowHost?: string[] }) => {
        const { devCommand } = await import('./dev-command.js');
        done(await devCommand(paths, options, io));
      },
    );
}

/** `june serve <workflows...>`. */
function addServeCommand(program: Command, io: CliIO, done: Done): void {
  program
    .command('serve')
    .description(
      'Serve workflows to other agents over MCP (Streamable HTTP): each workflow is one tool, each call a durable run.',
    )
    .argument('<workflows...>', 'workflow files; each is served as the tool named after its file')
    .option('--port <port>', 'the TCP port; 0 picks a free one (default: 3400)')
    .option('--host <host>', 'the address to listen on (default: 127.0.0.1)')
    .option(
      '--allow-host <name>',
      'another host name requests may address (repeatable)',
      (name: string, names: string[] = []) => [...names, name],
    )
    .option(
      '--tokens <file>',
      'a JSON file of client names to bearer tokens (default: one new token for the client "local", printed)',
    )
    .option('--dir <dir>', 'the runs folder the calls run in (default: .june/runs)')
    .option('--script <file>', 'a model script answering every model call (offline)')
    .option('--max-calls <n>', 'how many calls one client may have running at once (default: 4)')
    .option(
      '--a2a',
      'serve the workflows as an A2A agent too, at /a2a (each workflow a skill; needs @a2a-js/sdk)',
    )
    .action(async (files: string[], options: import('./serve-command.js').ServeCommandOptions) => {
      const { serveCommand } = await import('./serve-command.js');
      done(await serveCommand(files, options, io));
    });
}

type Done = (code: ExitCodeValue) => void;

/** Ends a message with a full stop unless it ends with one, or with a closing parenthesis. */
function sentence(text: string): string {
  return /[.)]$/.test(text) ? text : `${text}.`;
}
