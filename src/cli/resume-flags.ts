import { resumeFlagWords, type ResumeFlagValues } from '../studio/resume-details.js';
import type { RunCommandOptions } from './run-command.js';

/**
 * The flags of a `june run` that a resume of it needs, as values ({@link ResumeFlagValues}):
 * not `--approve` (the caller picks it), nor `--props` (a resume takes the recorded ones),
 * nor secret props given inline (the resume asks for them again).
 *
 * @param path - how a file path is kept: as given by default, or e.g. resolved for a
 *   process started in another folder.
 */
export function resumeFlagValues(
  options: RunCommandOptions,
  path: (file: string) => string = (file) => file,
): ResumeFlagValues {
  const has = (list: string[] | undefined) =>
    list !== undefined && list.length > 0 ? list : undefined;
  const values: ResumeFlagValues = {
    script: options.script === undefined ? undefined : path(options.script),
    trace: options.trace === undefined ? undefined : path(options.trace),
    stream: options.stream === false ? false : undefined,
    strict: options.strict ? true : undefined,
    redactEnv: has(options.redactEnv),
    redactPattern: has(options.redactPattern),
    secretProps: options.secretProps?.startsWith('@')
      ? `@${path(options.secretProps.slice(1))}`
      : undefined,
    otel: options.otel ? true : undefined,
    otelRecordInputs: options.otelRecordInputs ? true : undefined,
    otelRecordOutputs: options.otelRecordOutputs ? true : undefined,
  };
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined),
  ) as ResumeFlagValues;
}

/**
 * The flags of a `june run` that a resume of it needs to go on the same way
 * ({@link resumeFlagValues}), as shell words: `--script x`, `--strict`, ...
 */
export function resumeFlags(options: RunCommandOptions): string[] {
  return resumeFlagWords(resumeFlagValues(options)).flatMap(([flag, value]) =>
    value === undefined ? [flag] : [flag, value],
  );
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
