import { z } from 'zod';

/**
 * The flags of a `june run` that a resume of it needs to go on the same way, as values (never
 * as a command line): `--script`, `--trace`, `--no-stream`, `--strict`, `--redact-env`,
 * `--redact-pattern`, `--secret-props @file` (a secret given inline is never kept: the resume
 * asks for it again) and the `--otel` flags. Paths are absolute once recorded.
 */
export const resumeFlagsSchema = z.strictObject({
  script: z.string().min(1).optional(),
  trace: z.string().min(1).optional(),
  stream: z.literal(false).optional(),
  strict: z.literal(true).optional(),
  redactEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).optional(),
  redactPattern: z.array(z.string().min(1)).optional(),
  secretProps: z.string().regex(/^@./).optional(),
  otel: z.literal(true).optional(),
  otelRecordInputs: z.literal(true).optional(),
  otelRecordOutputs: z.literal(true).optional(),
});

/** See {@link resumeFlagsSchema}. */
export type ResumeFlagValues = z.infer<typeof resumeFlagsSchema>;

/**
 * How a stopped run is taken up again, as `june run` records it in `process.json`: data that
 * Studio checks and turns into a `june run` of its own (`resume-run.ts`), never a command.
 * - `workflow`: the workflow file, an absolute path inside `cwd`;
 * - `cwd`: the folder the run started in (absolute); its `.june/runs` holds the run;
 * - `flags`: the run's {@link ResumeFlagValues}.
 */
export const resumeDetailsSchema = z.strictObject({
  workflow: z.string().startsWith('/'),
  cwd: z.string().startsWith('/'),
  flags: resumeFlagsSchema,
});

/** See {@link resumeDetailsSchema}. */
export type ResumeDetails = z.infer<typeof resumeDetailsSchema>;

/** One flag of a command line, with its value when it takes one. */
export type FlagWord = readonly [flag: string, value?: string];

/**
 * The resume flags as `june run` flags, in a fixed order, each with its value when it takes
 * one; the caller writes them as words (`--script x`) or joined (`--script=x`, which no value
 * can turn into a flag of its own).
 *
 * @param path - how a file path is written: as given by default, or e.g. resolved.
 * @example
 * ```ts
 * resumeFlagWords({ script: 'flow.script.json', strict: true }); // [['--script', 'flow.script.json'], ['--strict']]
 * ```
 */
export function resumeFlagWords(
  flags: ResumeFlagValues,
  path: (file: string) => string = (file) => file,
): FlagWord[] {
  const words: FlagWord[] = [];
  if (flags.script !== undefined) words.push(['--script', path(flags.script)]);
  if (flags.trace !== undefined) words.push(['--trace', path(flags.trace)]);
  if (flags.stream === false) words.push(['--no-stream']);
  if (flags.strict) words.push(['--strict']);
  for (const name of flags.redactEnv ?? []) words.push(['--redact-env', name]);
  for (const pattern of flags.redactPattern ?? []) words.push(['--redact-pattern', pattern]);
  if (flags.secretProps !== undefined)
    words.push(['--secret-props', `@${path(flags.secretProps.slice(1))}`]);
  if (flags.otel) words.push(['--otel']);
  if (flags.otelRecordInputs) words.push(['--otel-record-inputs']);
  if (flags.otelRecordOutputs) words.push(['--otel-record-outputs']);
  return words;
}
