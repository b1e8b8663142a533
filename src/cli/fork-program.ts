import { Option, type Command } from 'commander';
import { runFlags, type RunFlag } from '../host/run-flags.js';
import type { ForkFlagValues } from './fork-flags.js';
import type { CliIO } from './cli-io.js';
import type { ExitCodeValue } from './exit-code.js';
import { runOption } from './run-program.js';

/** The flags of `june run` that `june fork` takes too: how its run goes, not which run it is. */
const forkRunFlags = new Set<string>([
  'props',
  'script',
  'approve',
  'approveEscalations',
  'trace',
  'json',
  'stream',
  'strict',
  'prices',
  'secretProps',
  'redactEnv',
  'redactPattern',
  'database',
  'follow',
]);

/**
 * Adds `june fork <run>` to the `june` program: lists a recorded run's records, or forks it
 * at one with one change and runs the fork as `june run` runs a run (`forkCommand`).
 */
export function addForkCommand(
  program: Command,
  io: CliIO,
  done: (code: ExitCodeValue) => void,
): void {
  const command = program
    .command('fork')
    .description(
      'Fork a recorded run at one of its records with one change, then run it: what came before replays, what comes after runs live. Without --at, list the records.',
    )
    .argument(
      '<run>',
      'the run id of a run in .june/runs (with --database, of a run in that database)',
    )
    .option('--at <record>', 'the record to fork at: its name or number, as the list shows it')
    .option('--result <json>', 'at a tool execution: the result the tool gives instead')
    .addOption(
      new Option('--answer <answer>', 'at an approval: the answer given instead').choices([
        'approve',
        'deny',
      ]),
    )
    .option('--reason <text>', 'with --answer: the reason given with it')
    .option(
      '--output <json>',
      "at a model call: the model's answer instead (a JSON string is its text); at a question: the answer; at a tool's approval: the result given instead of the tool",
    )
    .option(
      '--model <id>',
      'at a model call: the model id that makes it and every later call of its agent',
    )
    .option(
      '--settings <json>',
      'at a model call: its call settings from that call on, for its agent (JSON: {"temperature":0.2,"maxOutputTokens":500}), with or without --model',
    )
    .option('--all-agents', 'with --model or --settings: every agent uses them from that call on')
    .option('--no-start', 'make the fork and print its run id, without running it');
  for (const flag of runFlags as readonly RunFlag[])
    if (forkRunFlags.has(flag.key)) command.addOption(runOption(flag));
  command.action(async (runId: string, options: ForkFlagValues) => {
    const { forkCommand } = await import('./fork-command.js');
    done(await forkCommand(runId, options, io));
  });
}
