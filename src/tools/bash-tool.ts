import { tool, type Tool, type ToolExecutionOptions } from 'ai';
import { z } from 'zod';
import { SystemError, WorkflowError } from '../errors/index.js';
import { BASH_TOOL_DEFAULT_INHERIT_ENV, buildBashEnv } from './bash-env.js';
import { registerEnvSecrets } from '../redaction/configured-secrets.js';
import type { BashToolResult } from './bash-tool-result.js';
import { runBashCommand } from './run-bash-command.js';
import { omitFromModel } from './omit-from-model.js';

/**
 * Options of {@link bashTool}. None of them is shown to the model or written to a trace:
 * `cwd` and `env` live only in the tool's closure.
 */
export interface BashToolOptions {
  /**
   * Working directory of every command.
   * @default process.cwd() at the time bashTool() is called
   */
  cwd?: string;
  /**
   * Variables added to the command's environment, on top of those named in `inheritEnv`.
   * A value of `undefined` removes an inherited variable, so `env: process.env` passes the
   * whole parent environment (secrets included).
   * @default {}
   */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Names of the parent process's variables the command sees when they are set.
   * `[]` gives a command nothing but `env`.
   * @default BASH_TOOL_DEFAULT_INHERIT_ENV (PATH, HOME, USER, LOGNAME, SHELL, LANG, LC_ALL, LC_CTYPE, TERM, TZ, TMPDIR)
   */
  inheritEnv?: readonly string[];
  /**
   * Milliseconds a command may run before its whole process group is terminated. The model
   * may ask for less per call (`timeoutMs` in the input), never more: a larger value is
   * lowered to this one.
   * @default 30000
   */
  timeoutMs?: number;
  /**
   * Bytes of stdout, and separately of stderr, kept per command (the first ones). The rest is
   * dropped and `truncated` in the result says so.
   * @default 65536 (64 KiB)
   */
  maxOutputBytes?: number;
  /**
   * Milliseconds a process group gets between `SIGTERM` and `SIGKILL` when it is stopped.
   * @default 2000
   */
  killGraceMs?: number;
  /**
   * Whether each call waits for a person's approval (the AI SDK's `needsApproval`).
   * @default true
   */
  needsApproval?: boolean;
}

/** What the model sends: the exact command, and optionally a shorter timeout. */
export interface BashToolInput {
  /** The script run with `bash -c`. */
  command: string;
  /** Milliseconds before the command is stopped; at most the tool's `timeoutMs`. */
  timeoutMs?: number | undefined;
}

/**
 * The tool {@link bashTool} returns: an AI SDK `Tool` whose `execute` is always there and
 * always returns a promise, so it can be called directly too.
 */
export type BashTool = {
  execute(
    input: BashToolInput,
    options?: Partial<ToolExecutionOptions<unknown>>,
  ): Promise<BashToolResult>;
} & Tool<BashToolInput, BashToolResult>;

const maxTimerMs = 2_147_483_647; // the largest delay setTimeout honours

/**
 * Makes an AI SDK tool that runs a shell command with `bash -c` and returns
 * `{ exitCode, signal, timedOut, stdout, stderr, truncated, durationMs }` ({@link BashToolResult}).
 *
 * - The input is `{ command, timeoutMs? }`, so an approval request shows the exact command.
 *   Every call needs approval unless `needsApproval: false`.
 * - The command runs in `cwd` with a minimal environment: only PATH, HOME, USER, LOGNAME,
 *   SHELL, LANG, LC_ALL, LC_CTYPE, TERM, TZ and TMPDIR pass through from the parent
 *   (`inheritEnv`), plus what `env` adds. stdin is empty.
 * - bash leads a process group of its own. A timeout (`timeoutMs`, default 30000 ms, which
 *   the model can only lower) or an abort (`options.abortSignal` of `execute`) sends the whole
 *   group `SIGTERM`, then `SIGKILL` after `killGraceMs`. Background processes still running
 *   when bash exits are ended the same way.
 * - stdout and stderr keep their first `maxOutputBytes` bytes each (default 65536).
 * - `cwd` and `env` stay in this closure: they are not in the tool's description, schema,
 *   input or result.
 * - The model is given the result without `durationMs` ({@link omitFromModel}): the time a
 *   command took changes from run to run, and a replay of a recorded run must ask the model
 *   the same thing. The tool's events, trace node and journal record keep it.
 *
 * It is not a sandbox: the command can do whatever the user running June can. See docs/bash.md.
 *
 * @default needsApproval true, timeoutMs 30000, maxOutputBytes 65536, killGraceMs 2000, cwd process.cwd()
 * @throws {WorkflowError} `invalid-bash-option` when an option is out of range (at call time).
 * @throws {SystemError} `bash-unsupported-platform` on Windows.
 * @example
 * ```tsx
 * import { Agent, Step } from 'june';
 * import { openai } from 'june/sdk/openai';
 * import { bashTool } from 'june/tools';
 *
 * const bash = bashTool({ cwd: './repo', env: { CI: '1' }, timeoutMs: 60_000 });
 *
 * export default function Tests() {
 *   return (
 *     <Agent model={openai('gpt-5-mini')} tools={{ bash }}>
 *       <Step id="tests" prompt="Run the test suite and summarize the failures" />
 *     </Agent>
 *   );
 * }
 * ```
 */
export function bashTool(options: BashToolOptions = {}): BashTool {
  if (process.platform === 'win32') {
    throw new SystemError(
      'bash-unsupported-platform',
      'june: bashTool() needs a POSIX system (Linux or macOS) with bash; on Windows, run June inside WSL or a container',
    );
  }
  const { timeoutMs, maxOutputBytes, killGraceMs, needsApproval, cwd, env } =
    checkedOptions(options);

  const inputSchema = z.object({
    command: z.string().min(1).describe('The command to run with bash -c'),
    timeoutMs: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        `Milliseconds before the command is stopped; at most ${timeoutMs} (larger values are lowered to ${timeoutMs})`,
      ),
  });

  const execute = (
    input: BashToolInput,
    { abortSignal }: Partial<ToolExecutionOptions<unknown>> = {},
  ): Promise<BashToolResult> =>
    runBashCommand({
      command: input.command,
      cwd,
      env,
      timeoutMs: Math.min(input.timeoutMs ?? timeoutMs, timeoutMs),
      maxOutputBytes,
      killGraceMs,
      abortSignal,
    });

  return tool<BashToolInput, BashToolResult, Record<string, never>>({
    description:
      `Run a shell command with bash -c and get its exitCode, stdout and stderr. stdin is empty. ` +
      `The command and every process it starts are stopped after ${timeoutMs} ms (pass a lower timeoutMs to stop sooner) ` +
      `and when it exits, so background processes do not survive it. ` +
      `stdout and stderr keep their first ${maxOutputBytes} bytes each; truncated says which were cut.`,
    inputSchema,
    needsApproval,
    execute,
    // a command's duration changes from run to run: events, traces and journals keep it, the
    // model does not see it, so a replay asks the model what the recording did
    toModelOutput: omitFromModel<BashToolResult>('durationMs'),
  }) as BashTool;
}

/**
 * The options with their defaults, checked; the env's values registered as secrets.
 * @throws {WorkflowError} when an option is out of range or of the wrong type.
 */
function checkedOptions(options: BashToolOptions) {
  const timeoutMs = checkPositiveInteger('timeoutMs', options.timeoutMs, 30_000, maxTimerMs);
  const maxOutputBytes = checkPositiveInteger(
    'maxOutputBytes',
    options.maxOutputBytes,
    65_536,
    2 ** 30,
  );
  const killGraceMs = checkPositiveInteger('killGraceMs', options.killGraceMs, 2000, maxTimerMs);
  const needsApproval = options.needsApproval ?? true;
  if (typeof needsApproval !== 'boolean') {
    throw invalidOption(
      `needsApproval must be true or false, got ${typeof needsApproval}: pass a boolean`,
    );
  }
  const cwd = options.cwd ?? process.cwd();
  if (typeof cwd !== 'string' || cwd === '')
    throw invalidOption('cwd must be a non-empty path string: pass a directory');
  checkEnv(options.env, options.inheritEnv);
  const env = buildBashEnv(options.inheritEnv ?? BASH_TOOL_DEFAULT_INHERIT_ENV, options.env);
  // what the command gets is configured: `env` values and variables inherited by name alike
  registerEnvSecrets(env);
  return { timeoutMs, maxOutputBytes, killGraceMs, needsApproval, cwd, env };
}

function checkPositiveInteger(
  name: string,
  value: number | undefined,
  fallback: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > max) {
    const unit = name === 'maxOutputBytes' ? 'bytes' : 'ms';
    throw invalidOption(
      `${name} must be a whole number of ${unit} from 1 to ${max}, got ${String(value)}: change bashTool({ ${name} })`,
    );
  }
  return value;
}

function checkEnv(env: BashToolOptions['env'], inheritEnv: BashToolOptions['inheritEnv']): void {
  for (const [name, value] of Object.entries(env ?? {})) {
    if (!isVariableName(name)) {
      throw invalidOption(
        `env has the variable name ${JSON.stringify(name)}, which is empty or holds "=" or a NUL byte: rename it`,
      );
    }
    // The value is never quoted: it may be a secret.
    if (value !== undefined && (typeof value !== 'string' || value.includes('\0'))) {
      throw invalidOption(
        `env.${name} must be a string without NUL bytes, or undefined to remove it: change its value`,
      );
    }
  }
  if (
    inheritEnv !== undefined &&
    !(
      Array.isArray(inheritEnv) &&
      inheritEnv.every((name) => typeof name === 'string' && isVariableName(name))
    )
  ) {
    throw invalidOption(
      'inheritEnv must be an array of variable names, e.g. ["PATH", "HOME"]: change bashTool({ inheritEnv })',
    );
  }
}

function isVariableName(name: string): boolean {
  return name !== '' && !name.includes('=') && !name.includes('\0');
}

function invalidOption(detail: string): WorkflowError {
  return new WorkflowError('invalid-bash-option', `june: bashTool(): ${detail}`);
}
