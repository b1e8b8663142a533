import type { RunCommandOptions } from './run-command.js';

/**
 * The flags of a `june run` that a resume of it needs to go on the same way, as arguments:
 * `--script`, `--trace`, `--no-stream`, `--strict`, `--redact-env`, `--redact-pattern`,
 * `--secret-props @file` (secrets given inline are never repeated: the resume asks for them
 * again) and the `--otel` flags. Not `--approve` (the caller picks it), nor `--props` (a
 * resume takes the recorded ones).
 *
 * @param path - how a file path is written: as given by default, or e.g. resolved for a
 *   process started in another folder.
 */
export function resumeFlags(
  options: RunCommandOptions,
  path: (file: string) => string = (file) => file,
): string[] {
  const args: string[] = [];
  if (options.script !== undefined) args.push('--script', path(options.script));
  if (options.trace !== undefined) args.push('--trace', path(options.trace));
  if (options.stream === false) args.push('--no-stream');
  if (options.strict) args.push('--strict');
  for (const name of options.redactEnv ?? []) args.push('--redact-env', name);
  for (const pattern of options.redactPattern ?? []) args.push('--redact-pattern', pattern);
  if (options.secretProps?.startsWith('@'))
    args.push('--secret-props', `@${path(options.secretProps.slice(1))}`);
  if (options.otel) args.push('--otel');
  if (options.otelRecordInputs) args.push('--otel-record-inputs');
  if (options.otelRecordOutputs) args.push('--otel-record-outputs');
  return args;
}

/**
 * The resume line `june run` prints when a run stops before its end, ready to paste into a
 * shell: `june run <file> <flags> --approve <mode> --resume <runId>`, with the `--approve`
 * mode the run had (left out for the default `ask`) and its {@link resumeFlags}.
 */
export function printedResumeCommand(
  file: string,
  runId: string,
  options: RunCommandOptions,
): string {
  const approve =
    options.approve === undefined || options.approve === 'ask'
      ? []
      : ['--approve', options.approve];
  const args = ['run', file, ...resumeFlags(options), ...approve, '--resume', runId];
  return ['june', ...args.map(shellWord)].join(' ');
}

/** A word as a POSIX shell reads it back: as is when plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
