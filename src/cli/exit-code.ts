import { JuneError, type JuneErrorCode } from '../errors/index.js';

/**
 * The exit codes of the `june` command: `0` success, `1` a workflow that failed to load or
 * run, `2` bad usage (a bad flag, bad `--props`, a missing file), and after a stop signal
 * (once the run was aborted and its trace written): `130` interrupted with Ctrl-C (SIGINT),
 * `143` SIGTERM, `129` SIGHUP (128 + the signal's number, as shells report it).
 */
export const ExitCode = {
  success: 0,
  failed: 1,
  usage: 2,
  interrupted: 130,
  terminated: 143,
  hangup: 129,
} as const;

/** One of {@link ExitCode}'s values. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** Error codes that mean the command was used wrongly, not that the workflow failed. */
const usageCodes: ReadonlySet<JuneErrorCode> = new Set<JuneErrorCode>([
  'cli-init-conflict',
  'cli-option-invalid',
  'cli-props-invalid',
  'cli-workflow-missing',
  'fork-record-unknown',
  'fork-change-invalid',
  'thread-id-invalid',
  'dbos-executor-held',
  'dbos-props-secret',
  'script-unreadable',
  'script-invalid',
  'journal-unreadable',
  'eval-results-unreadable',
  'eval-results-invalid',
]);

/**
 * The exit code for an error that stopped a command: {@link ExitCode.usage} for bad usage
 * (the codes `cli-init-conflict`, `cli-option-invalid`, `cli-props-invalid`, `cli-workflow-missing`,
 * `dbos-props-secret` (`--props` that would store a secret in the database), `thread-id-invalid`
 * (`--thread`, `june threads show` or `delete` given an id no thread can have),
 * `script-unreadable`, `script-invalid`, and `journal-unreadable`: a `--replay` file or a
 * `--resume` journal that cannot be read; `eval-results-unreadable`, `eval-results-invalid`: a
 * results file `june evals compare` cannot read), else {@link ExitCode.failed}.
 *
 * @example
 * ```ts
 * exitCodeOf(new WorkflowError('cli-props-invalid', 'june: ...')); // 2
 * ```
 */
export function exitCodeOf(error: unknown): ExitCodeValue {
  return JuneError.isInstance(error) && usageCodes.has(error.code)
    ? ExitCode.usage
    : ExitCode.failed;
}
