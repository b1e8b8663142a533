import { z } from 'zod';

// The flags of `june run`, written once. The CLI builds its command from this table
// (cli/run-program.ts), `june run`'s options type is derived from it (RunFlagValues), and a
// stopped run's resume (the line `june run` prints, the flags it records for Studio, and the
// `june run` Studio starts) reads and writes its flags through it. It sits beside Studio's
// resume details because Studio starts `june run` itself and may not import the CLI.

/**
 * How `june run` answers approval requests (`--approve`): ask a person, approve all, deny
 * all, `studio`: wait for the answers given in June Studio (`june studio` on the same runs
 * folder), or `wait`: leave them pending (the run waits until it is stopped; `--resume`, or
 * an answer in Studio, takes it up again later, from another process).
 */
export type ApproveMode = 'ask' | 'all' | 'none' | 'studio' | 'wait';

/** The values `--approve` accepts. */
export const approveModes: readonly ApproveMode[] = ['ask', 'all', 'none', 'studio', 'wait'];

/**
 * How a resume of a stopped run carries a flag: `as-is`, a file path (absolute once
 * recorded), or `secret-file`: `--secret-props @file` carries its file, while secrets given
 * inline are never kept (the resume asks for them again). A flag without one is not carried:
 * `--approve` (the resume picks it), `--props` (a resume takes the recorded ones), the
 * journal flags and `--database`.
 */
export type ResumeCarry = 'as-is' | 'path' | 'secret-file';

/**
 * One flag of `june run`:
 * - `key`: its property in the parsed options (commander's name for the flag);
 * - `flags`: the flag as commander and `--help` show it (`--script <file>`);
 * - `kind`: `switch` (present or not), `negated` (`--no-stream`: `false` when given), `value`,
 *   `values` (repeatable, collected in order), or `choice` (one of `choices`);
 * - `resume`: how a resume carries it ({@link ResumeCarry}); `resumeValue` checks each
 *   recorded value (a `values` flag's items).
 */
export interface RunFlag {
  key: string;
  flags: string;
  description: string;
  kind: 'switch' | 'negated' | 'value' | 'values' | 'choice';
  choices?: readonly string[];
  default?: string;
  resume?: ResumeCarry;
  resumeValue?: z.ZodString;
}

/** `june run`'s flags, in the order `--help` lists them. */
export const runFlags = [
  {
    key: 'props',
    flags: '--props <json>',
    description: 'props for the root component, as a JSON object',
    kind: 'value',
  },
  {
    key: 'script',
    flags: '--script <file>',
    description: 'answer every model call from this model script (offline)',
    kind: 'value',
    resume: 'path',
  },
  {
    key: 'approve',
    flags: '--approve <mode>',
    description:
      'approval requests: ask at the terminal, approve all, deny all, studio (answer them in June Studio), or wait (leave them pending, to answer with june approve or in Studio, or --resume later)',
    kind: 'choice',
    choices: approveModes,
    default: 'ask',
  },
  {
    key: 'approveEscalations',
    flags: '--approve-escalations',
    description:
      "with --approve all or none: answer the calls a <Guard> escalated and a <Budget>'s requests for more that way too (without it they still go to a person: the terminal, Studio, or june approve)",
    kind: 'switch',
  },
  {
    key: 'trace',
    flags: '--trace <file>',
    description: 'also write the trace to this file',
    kind: 'value',
    resume: 'path',
  },
  {
    key: 'json',
    flags: '--json',
    description:
      "print each run event as one line of JSON (no prompts); model answers come whole, a turn's text as one text-delta",
    kind: 'switch',
  },
  {
    key: 'stream',
    flags: '--no-stream',
    description:
      "take each model answer whole instead of token by token (the provider's non-streaming call; costs less)",
    kind: 'negated',
    resume: 'as-is',
  },
  {
    key: 'resume',
    flags: '--resume <runId>',
    description:
      'take up a stopped run again from its journal (.june/runs/<runId>/journal.jsonl): nothing that finished runs again',
    kind: 'value',
  },
  {
    key: 'runId',
    flags: '--run-id <id>',
    description:
      "the new run's id (1 to 128 letters, digits, '.', '_' and '-'); default: a new one. A program that starts june run (Studio) names the run so it can follow it",
    kind: 'value',
  },
  {
    key: 'waitForOwner',
    flags: '--wait-for-owner',
    description:
      'with --resume: when another process runs that run, wait for it to let go instead of failing; with --thread: wait for the run that holds the thread',
    kind: 'switch',
  },
  {
    key: 'thread',
    flags: '--thread <id>',
    description:
      "continue this thread's conversation (its earlier runs in the runs folder, or in the database with --database); one run of a thread at a time",
    kind: 'value',
  },
  {
    key: 'replay',
    flags: '--replay <runId|file>',
    description:
      'answer every model call from a recorded journal (a run id, or a journal.jsonl file)',
    kind: 'value',
  },
  {
    key: 'replayTools',
    flags: '--replay-tools',
    description:
      'with --replay: answer tool calls from the recording too, instead of running them (no tool runs, nothing outside the run changes)',
    kind: 'switch',
  },
  {
    key: 'strict',
    flags: '--strict',
    description:
      'fail the run on a workflow error at any depth (even one a model saw as a tool error) and on --script turns that never ran',
    kind: 'switch',
    resume: 'as-is',
  },
  {
    key: 'prices',
    flags: '--prices <file>',
    description:
      'prices of your own from a JSON file, in USD per million tokens by "<provider>:<model id>" ({"openai:gpt-5-mini": {"inputPerMTok": 0.25, "outputPerMTok": 2}}), before the bundled price catalog',
    kind: 'value',
    resume: 'path',
  },
  {
    key: 'database',
    flags: '--database <url>',
    description:
      'enqueue the run for june worker processes sharing this PostgreSQL database, instead of running it here',
    kind: 'value',
  },
  {
    key: 'follow',
    flags: '--follow',
    description:
      'with --database: show the run as it goes from whichever worker runs it (Ctrl-C stops following, not the run)',
    kind: 'switch',
  },
  {
    key: 'secretProps',
    flags: '--secret-props <json|@file>',
    description:
      'props whose values are secrets, merged over --props: never stored in clear (the journal keeps [redacted]; pass them again to --resume)',
    kind: 'value',
    resume: 'secret-file',
  },
  {
    key: 'redactEnv',
    flags: '--redact-env <name>',
    description:
      'keep the value of this environment variable out of the trace, journal and output (repeatable)',
    kind: 'values',
    resume: 'as-is',
    resumeValue: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
  },
  {
    key: 'redactPattern',
    flags: '--redact-pattern <regex>',
    description:
      'keep every match of this regular expression out of the trace, journal and output (repeatable)',
    kind: 'values',
    resume: 'as-is',
  },
  {
    key: 'otel',
    flags: '--otel',
    description:
      'export the run as OpenTelemetry spans over OTLP/HTTP, set up from OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS and OTEL_SERVICE_NAME',
    kind: 'switch',
    resume: 'as-is',
  },
  {
    key: 'otelRecordInputs',
    flags: '--otel-record-inputs',
    description:
      'with --otel: put step prompts and tool inputs on the spans (redacted as the run is)',
    kind: 'switch',
    resume: 'as-is',
  },
  {
    key: 'otelRecordOutputs',
    flags: '--otel-record-outputs',
    description:
      'with --otel: put step results and tool outputs on the spans (redacted as the run is)',
    kind: 'switch',
    resume: 'as-is',
  },
] as const satisfies readonly RunFlag[];

type Flag = (typeof runFlags)[number];

/** What a parsed flag holds, by kind. */
type ParsedValue<F extends Flag> = F extends { kind: 'switch' | 'negated' }
  ? boolean
  : F extends { kind: 'values' }
    ? string[]
    : F extends { key: 'approve' }
      ? ApproveMode
      : string;

/**
 * `june run`'s options as commander parses them, one property per flag of {@link runFlags}
 * (`--no-stream` is `stream: false`; a repeatable flag, every value in order). Every one may
 * be absent when the options come from a program rather than a command line.
 */
export type RunFlagValues = { [F in Flag as F['key']]?: ParsedValue<F> };

type Carried = Extract<Flag, { resume: ResumeCarry }>;

/** What a resume record holds for a flag: only what changes the run (`--strict` as `true`, `--no-stream` as `false`). */
type CarriedValue<F extends Carried> = F extends { kind: 'switch' }
  ? true
  : F extends { kind: 'negated' }
    ? false
    : F extends { kind: 'values' }
      ? string[]
      : string;

/**
 * The flags of a `june run` that a resume of it needs to go on the same way, as values (never
 * as a command line): those of {@link runFlags} with a `resume` carry. Paths are absolute
 * once recorded.
 */
export type ResumeFlagValues = { [F in Carried as F['key']]?: CarriedValue<F> };

function carriedSchema(flag: RunFlag): z.ZodType {
  if (flag.kind === 'switch') return z.literal(true);
  if (flag.kind === 'negated') return z.literal(false);
  const item = flag.resumeValue ?? z.string().min(1);
  if (flag.kind === 'values') return z.array(item);
  return flag.resume === 'secret-file' ? item.regex(/^@./) : item;
}

/** Checks a recorded {@link ResumeFlagValues}: only the carried flags, each with a value it may have. */
export const resumeFlagsSchema: z.ZodType<ResumeFlagValues> = z.strictObject(
  Object.fromEntries(
    (runFlags as readonly RunFlag[])
      .filter((flag) => flag.resume !== undefined)
      .map((flag) => [flag.key, carriedSchema(flag).optional()]),
  ),
) as unknown as z.ZodType<ResumeFlagValues>;

/** A flag's name on a command line: `--script` of `--script <file>`. */
export function flagName(flag: RunFlag): string {
  return flag.flags.split(' ')[0]!;
}

/** One carried flag's value from parsed options, or undefined when a resume leaves it out. */
function carriedValue(flag: RunFlag, value: unknown, path: (file: string) => string): unknown {
  if (flag.kind === 'switch') return value === true ? true : undefined;
  if (flag.kind === 'negated') return value === false ? false : undefined;
  if (flag.kind === 'values')
    return Array.isArray(value) && value.length > 0 ? [...value] : undefined;
  if (typeof value !== 'string') return undefined;
  if (flag.resume === 'path') return path(value);
  if (flag.resume === 'secret-file')
    return value.startsWith('@') ? `@${path(value.slice(1))}` : undefined;
  return value;
}

/**
 * The flags of a `june run` that a resume of it needs ({@link ResumeFlagValues}), from its
 * parsed options: not `--approve` (the caller picks it), nor `--props` (a resume takes the
 * recorded ones), nor secret props given inline (the resume asks for them again).
 *
 * @param path - how a file path is kept: as given by default, or e.g. resolved for a
 *   process started in another folder.
 */
export function resumeFlagValues(
  options: RunFlagValues,
  path: (file: string) => string = (file) => file,
): ResumeFlagValues {
  const values: Record<string, unknown> = {};
  for (const flag of runFlags as readonly RunFlag[]) {
    if (flag.resume === undefined) continue;
    const value = carriedValue(flag, (options as Record<string, unknown>)[flag.key], path);
    if (value !== undefined) values[flag.key] = value;
  }
  return values as ResumeFlagValues;
}

/** One flag of a command line, with its value when it takes one. */
export type FlagWord = readonly [flag: string, value?: string];

/**
 * The resume flags as `june run` flags, in the order of {@link runFlags}, each with its value
 * when it takes one; the caller writes them as words (`--script x`) or joined
 * (`--script=x`, which no value can turn into a flag of its own).
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
  for (const flag of runFlags as readonly RunFlag[]) {
    if (flag.resume === undefined) continue;
    const value = carriedValue(flag, (flags as Record<string, unknown>)[flag.key], path);
    if (value === undefined) continue;
    const name = flagName(flag);
    if (Array.isArray(value)) for (const item of value) words.push([name, String(item)]);
    else if (typeof value === 'string') words.push([name, value]);
    else words.push([name]);
  }
  return words;
}
