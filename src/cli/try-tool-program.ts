import { Option, type Command } from 'commander';
import type { CliIO } from './cli-io.js';
import type { ExitCodeValue } from './exit-code.js';
import type { TryToolOptions } from './try-tool-command.js';

/**
 * Adds `june try-tool <file>` to the `june` program (see `tryToolCommand`); its module loads
 * when it runs.
 */
export function addTryToolCommand(
  program: Command,
  io: CliIO,
  done: (code: ExitCodeValue) => void,
): void {
  program
    .command('try-tool')
    .description(
      "Call one tool of one agent once, as the agent's scope resolves it (its approval rule holds), recorded as a run of its own in .june/runs/.",
    )
    .argument('<file>', 'the workflow, a .tsx file whose default export is a component')
    .requiredOption('--agent <path>', 'the agent, by its path as june inspect shows it')
    .requiredOption('--tool <name>', "the tool's name as that agent's model sees it")
    .option('--input <json>', "the tool's input, as JSON", '{}')
    .option('--props <json>', 'props for the root component, as a JSON object')
    .option('--run-id <id>', "the run's id (default: a new one)")
    .addOption(
      new Option('--approve <mode>', 'its approval, if it needs one: as june run --approve')
        .choices(['ask', 'all', 'none', 'studio'])
        .default('ask'),
    )
    .option(
      '--approve-escalations',
      "let --approve all or none answer a guard's escalations too (else a person answers them)",
    )
    .option('--json', 'print each run event as one line of JSON')
    .action(async (file: string, options: TryToolOptions) => {
      const { tryToolCommand } = await import('./try-tool-command.js');
      done(await tryToolCommand(file, options, io));
    });
}
