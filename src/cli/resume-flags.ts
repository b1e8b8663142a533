import { resumeFlagValues, resumeFlagWords } from '../host/run-flags.js';
import { resolve } from 'node:path';
import type { ResumeDetails } from '../host/resume-details.js';
import type { RunCommandOptions } from './run-command-options.js';

export { resumeFlagValues } from '../host/run-flags.js';

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
 * mode the run had (left out for the default `ask`; `--approve-escalations` with `all` or
 * `none`, when given) and its {@link resumeFlags}.
 */
export function printedResumeCommand(
  file: string,
  runId: string,
  options: RunCommandOptions,
): string {
  const escalations =
    options.approveEscalations && (options.approve === 'all' || options.approve === 'none');
  const approve =
    options.approve === undefined || options.approve === 'ask'
      ? []
      : ['--approve', options.approve, ...(escalations ? ['--approve-escalations'] : [])];
  const args = ['run', file, ...resumeFlags(options), ...approve, '--resume', runId];
  return ['june', ...args.map(shellWord)].join(' ');
}

/** A word as a POSIX shell reads it back: as is when plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * What takes the run up again with Studio answering, as data ({@link ResumeDetails}): the
 * workflow file and this folder, absolute, and the flags of this run that still matter for a
 * resume as values (a secret given inline is not kept). Studio builds its own `june run` from
 * them, once their seal holds.
 */
export function resumeDetails(file: string, options: RunCommandOptions): ResumeDetails {
  return {
    workflow: resolve(file),
    cwd: process.cwd(),
    flags: resumeFlagValues(options, (path) => resolve(path)),
  };
}
