import { WorkflowError } from '../errors/index.js';
import { compareEvalResults, formatEvalComparison, readEvalResults } from '../evals/index.js';
import type { CliIO } from './cli-io.js';
import { checkEvalStore } from './eval-store-check.js';
import { ExitCode, type ExitCodeValue } from './exit-code.js';

/**
 * Runs `june evals compare`: reads both results files, prints each regression and
 * improvement (or the comparison as JSON with `json`), and returns 1 when a score went down.
 *
 * @throws {WorkflowError} `cli-option-invalid` for a `tolerance` that is not a number from 0
 *   to 1; `eval-results-unreadable`, `eval-results-invalid` for a results file (exit 2).
 * @example
 * ```ts
 * await evalsCompareCommand('main.json', 'branch.json', {}, processIO()); // 1 with a regression
 * ```
 */
export async function evalsCompareCommand(
  before: string,
  after: string,
  options: { tolerance?: string; json?: boolean },
  io: CliIO,
): Promise<ExitCodeValue> {
  const tolerance = options.tolerance === undefined ? 0 : Number(options.tolerance);
  if (!Number.isFinite(tolerance) || tolerance < 0 || tolerance > 1) {
    throw new WorkflowError(
      'cli-option-invalid',
      `june: --tolerance takes a score difference from 0 to 1, such as 0.05; got "${options.tolerance}".`,
    );
  }
  const comparison = compareEvalResults(
    await readEvalResults(before),
    await readEvalResults(after),
    { tolerance },
  );
  io.stdout.write(
    options.json
      ? `${JSON.stringify(comparison, null, 2)}\n`
      : `${formatEvalComparison(comparison)}\n`,
  );
  return comparison.regressions.length > 0 ? ExitCode.failed : ExitCode.success;
}

/**
 * Runs `june evals check`: loads evalite's results store (better-sqlite3) from `cwd` the way
 * evalite does and prints one line on what it found. evalite loads that native module before
 * any of June's code runs, so a build for another Node.js fails there with a stack trace; this
 * says so in one line, with the command that rebuilds it.
 *
 * @returns {@link ExitCode.success} when evalite can open its database.
 * @throws {SystemError} `eval-runner-missing`, `eval-store-unloadable` (exit 1): see
 *   {@link checkEvalStore}.
 * @example
 * ```ts
 * await evalsCheckCommand(processIO(), 'evals'); // june: evalite 0.19.0 can keep its results ...
 * ```
 */
export function evalsCheckCommand(io: CliIO, cwd: string = process.cwd()): ExitCodeValue {
  const found = checkEvalStore(cwd);
  io.stdout.write(
    `june: evalite ${found.evalite} can keep its results: better-sqlite3 ${found.sqlite} loads in Node.js ${process.version} (NODE_MODULE_VERSION ${process.versions.modules}).\n`,
  );
  return ExitCode.success;
}
