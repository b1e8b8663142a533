import { Option, type Command } from 'commander';
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
 * Adds `june run <file>` to the `june` program: `runCommand`, which starts the run on the
 * host its flags name (this process's runs folder, or with `--database` the workers') and
 * follows it. Its module loads when it runs.
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
    const { runCommand } = await import('./run-command.js');
    done(await runCommand(file, options, io));
  });
}
