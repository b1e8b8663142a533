import type { Command } from 'commander';
import type { CliIO } from './cli-io.js';
import type { ExitCodeValue } from './exit-code.js';

/**
 * `june evals compare <before> <after>`: what changed between two eval runs, case by case,
 * from the results files evalite writes (`evalite run --outputPath FILE`). The command loads
 * `june/evals` when it runs. `june evals check`: whether evalite can open its results
 * database in this Node.js, before `evalite run` fails on it with a stack trace.
 */
export function addEvalsCommand(
  program: Command,
  io: CliIO,
  done: (code: ExitCodeValue) => void,
): void {
  const evals = program
    .command('evals')
    .description('Work with the results of eval runs (june/evals with evalite).');
  evals
    .command('check')
    .description(
      'Check that evalite can open its results database here: its better-sqlite3 loads in this Node.js. On failure, prints the command that rebuilds it and exits 1.',
    )
    .action(async () => {
      const { evalsCheckCommand } = await import('./evals-command.js');
      done(evalsCheckCommand(io));
    });
  evals
    .command('compare')
    .description(
      'Name every case whose scores went down (regressions) or up (improvements) from one eval run to the next; exits 1 when any went down.',
    )
    .argument('<before>', 'the earlier results (evalite run --outputPath FILE)')
    .argument('<after>', 'the later results')
    .option(
      '--tolerance <score>',
      'how far a score (0 to 1) may move and count as the same (default: 0)',
    )
    .option('--json', 'print the comparison as JSON')
    .action(
      async (before: string, after: string, options: { tolerance?: string; json?: boolean }) => {
        const { evalsCompareCommand } = await import('./evals-command.js');
        done(await evalsCompareCommand(before, after, options, io));
      },
    );
}
