import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { SystemError } from '../errors/index.js';
import { CappedOutput } from './capped-output.js';
import { holdProcessGroup } from './held-process-groups.js';
import { isProcessGroupRunning, terminateProcessGroup } from './process-group.js';
import type { BashToolResult } from './bash-tool-result.js';

/** Everything {@link runBashCommand} needs; `cwd` and `env` come from the tool's closure. */
export interface RunBashCommandOptions {
  /** The script passed to `bash -c`. */
  command: string;
  /** Working directory of the command. */
  cwd: string;
  /** The command's whole environment. */
  env: Record<string, string>;
  /** Milliseconds before the command's process group is terminated. */
  timeoutMs: number;
  /** Bytes kept per stream (stdout, stderr). */
  maxOutputBytes: number;
  /** Milliseconds between `SIGTERM` and `SIGKILL`. */
  killGraceMs: number;
  /** Aborting it terminates the process group; the promise then rejects with its reason. */
  abortSignal?: AbortSignal | undefined;
}

/**
 * Runs `bash -c command` as the leader of a new process group and resolves once no process
 * of that group is running any more.
 *
 * - On timeout or abort the whole group gets `SIGTERM`, then `SIGKILL` after `killGraceMs`.
 * - When bash exits on its own, background processes it left in the group are ended the same
 *   way, so nothing outlives the call.
 * - Nor June's process: the group is held ({@link holdProcessGroup}) until it is gone, so an
 *   exit (a second stop signal) kills it, and a watchdog ends it should June be killed.
 * - stdin is empty; stdout and stderr are kept up to `maxOutputBytes` bytes each.
 *
 * @throws the abort signal's reason when `abortSignal` aborts (after the group is gone).
 * @throws {SystemError} `bash-spawn-failed` when bash cannot be started.
 * @example
 * ```ts
 * const result = await runBashCommand({
 *   command: 'ls', cwd: process.cwd(), env: { PATH: process.env.PATH ?? '' },
 *   timeoutMs: 30_000, maxOutputBytes: 65_536, killGraceMs: 2000,
 * });
 * ```
 */
export async function runBashCommand(options: RunBashCommandOptions): Promise<BashToolResult> {
  const { abortSignal } = options;
  abortSignal?.throwIfAborted();
  const startedAt = performance.now();
  const { group, child, stdout, stderr, closed, exited } = spawnHeldBash(options);

  const pid = child.pid;
  if (pid === undefined) {
    group.release();
    const outcome = await exited;
    throw spawnFailed('error' in outcome ? outcome.error : undefined, options.cwd);
  }
  group.attach(pid);
  let bashExited = false;
  let timedOut = false;
  let termination: Promise<unknown> | undefined;
  const terminate = () => (termination ??= terminateProcessGroup(pid, options.killGraceMs));
  const timer = setTimeout(() => {
    if (bashExited) return;
    timedOut = true;
    void terminate();
  }, options.timeoutMs);
  const onAbort = () => void terminate();
  abortSignal?.addEventListener('abort', onAbort, { once: true });

  try {
    const outcome = await exited;
    bashExited = true;
    if ('error' in outcome) {
      await terminate();
      throw spawnFailed(outcome.error, options.cwd);
    }
    // Background processes bash left behind (`server &`) end with the command.
    if (termination === undefined && isProcessGroupRunning(pid)) void terminate();
    await termination;
    await closePipes(child, closed, options.killGraceMs);
    abortSignal?.throwIfAborted();

    const truncatedStreams = [stdout.truncated && 'stdout', stderr.truncated && 'stderr'].filter(
      (name): name is 'stdout' | 'stderr' => name !== false,
    );
    return {
      exitCode: outcome.code,
      signal: outcome.signal,
      timedOut,
      stdout: stdout.text(),
      stderr: stderr.text(),
      truncated:
        truncatedStreams.length > 0
          ? { streams: truncatedStreams, maxOutputBytes: options.maxOutputBytes }
          : false,
      durationMs: Math.round(performance.now() - startedAt),
    };
  } finally {
    clearTimeout(timer);
    abortSignal?.removeEventListener('abort', onAbort);
    group.release();
  }
}

/**
 * Starts bash (see {@link spawnBash}) with its group held from before it exists: nothing of
 * the group outlives June, even when June's process ends first (a second Ctrl-C, kill -9).
 * See holdProcessGroup.
 */
function spawnHeldBash(options: RunBashCommandOptions) {
  const group = holdProcessGroup(options.killGraceMs);
  try {
    return { group, ...spawnBash(options) };
  } catch (error) {
    group.release();
    throw error;
  }
}

/** Starts bash in a process group of its own, collecting its output up to the cap. */
function spawnBash(options: RunBashCommandOptions) {
  const child = spawn('bash', ['-c', options.command], {
    cwd: options.cwd,
    env: options.env,
    detached: true, // a new process group led by bash: `kill(-pid)` reaches everything it starts
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout = new CappedOutput(options.maxOutputBytes);
  const stderr = new CappedOutput(options.maxOutputBytes);
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const exited = new Promise<
    { code: number | null; signal: NodeJS.Signals | null } | { error: Error }
  >((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.on('error', (error) => resolve({ error })); // `on`: a second 'error' must not go unhandled
  });
  return { child, stdout, stderr, closed, exited };
}

/**
 * Waits for the output pipes to close, then closes them. They close when the last writer is
 * gone; a process that left the group could keep them open, so this waits at most `graceMs`.
 */
async function closePipes(
  child: ChildProcessByStdio<null, Readable, Readable>,
  closed: Promise<void>,
  graceMs: number,
): Promise<void> {
  let closeTimer: NodeJS.Timeout | undefined;
  await Promise.race([
    closed,
    new Promise((resolve) => (closeTimer = setTimeout(resolve, graceMs))),
  ]);
  clearTimeout(closeTimer);
  child.stdout.destroy();
  child.stderr.destroy();
}

/** The error for a bash that could not start; it never names the cwd (it must not reach traces). */
function spawnFailed(cause: Error | undefined, cwd: string): SystemError {
  const why = cause instanceof Error ? cause.message : 'unknown error';
  const hint = isDirectory(cwd)
    ? 'check that bash is installed and on the PATH of the process running June'
    : 'the configured cwd does not exist or is not a directory: change bashTool({ cwd })';
  return new SystemError(
    'bash-spawn-failed',
    `june: the bash tool could not start bash (${why}): ${hint}`,
    { cause },
  );
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
