import { JuneError } from '../errors/index.js';

/**
 * The exit codes of the `june` command: `0` success, `1` a workflow that failed to load or
 * run, `2` bad usage (a bad flag, bad `--props`, a missing file), `130` interrupted with
 * Ctrl-C (after the run was aborted and its trace written).
 */
export const ExitCode = { success: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** One of {@link ExitCode}'s values. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** Error codes that mean the command was used wrongly, not that the workflow failed. */
const usageCodes = new Set(['cli-init-conflict', 'cli-option-invalid', 'cli-props-invalid', 'cli-workflow-missing', 'script-unreadable', 'script-invalid']);

/**
 * The exit code for an error that stopped a command: {@link ExitCode.usage} for bad usage
 * (the codes `cli-init-conflict`, `cli-option-invalid`, `cli-props-invalid`, `cli-workflow-missing`,
 * `script-unreadable`, `script-invalid`), else {@link ExitCode.failed}.
 *
 * @example
 * ```ts
 * exitCodeOf(new WorkflowError('cli-props-invalid', 'june: ...')); // 2
 * ```
 */
export function exitCodeOf(error: unknown): ExitCodeValue {
  return JuneError.isInstance(error) && usageCodes.has(error.code) ? ExitCode.usage : ExitCode.failed;
}
