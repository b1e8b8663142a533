import { RunAbortedError } from '../errors/index.js';
import { closeAbandoned, unstoppedWork } from '../interpreter/abort-grace.js';
import { traceError } from '../trace/index.js';
import type { Trace } from '../trace/index.js';
import { ExitCode, type ExitCodeValue } from './exit-code.js';

/** The signals that stop `june run`: Ctrl-C, `kill`/`timeout`/`docker stop`/CI cancellation, a closed terminal. */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** What each stop signal means to `june run`: the exit code (128 + the signal's number) and the abort's reason. */
export const stopSignals: Readonly<
  Record<StopSignal, { exitCode: ExitCodeValue; reason: string }>
> = {
  SIGINT: { exitCode: ExitCode.interrupted, reason: 'interrupted with Ctrl-C' },
  SIGTERM: { exitCode: ExitCode.terminated, reason: 'stopped by SIGTERM' },
  SIGHUP: { exitCode: ExitCode.hangup, reason: 'stopped by SIGHUP (its terminal closed)' },
};

/**
 * Calls `onSignal` for every SIGINT, SIGTERM and SIGHUP the process gets, instead of Node's
 * default (exiting at once). Returns a function that stops listening.
 *
 * @example
 * ```ts
 * const off = onStopSignals((signal) => handle.abort(stopSignals[signal].reason));
 * try { await handle.result; } finally { off(); }
 * ```
 */
export function onStopSignals(onSignal: (signal: StopSignal) => void): () => void {
  const listeners = (Object.keys(stopSignals) as StopSignal[]).map((signal) => {
    const listener = () => onSignal(signal);
    process.on(signal, listener);
    return () => process.off(signal, listener);
  });
  return () => listeners.forEach((off) => off());
}

/**
 * A run's trace as it must be left when June quits before the run stopped (a second stop
 * signal): every open node closed as `aborted`, and the run's error naming what was still
 * running. `trace` is a snapshot; it is changed and returned.
 */
export function abandonedTrace(trace: Trace, reason: string, signal: StopSignal): Trace {
  const unstopped = unstoppedWork(trace.root, { calls: [], components: [] });
  const still = unstopped.length > 0 ? ` (still running: ${unstopped.join(', ')})` : '';
  const error = new RunAbortedError(
    `${reason}; a second ${signal} ended June before the run had stopped${still}`,
  );
  closeAbandoned(trace.root, 0, new Set());
  const endedAt = new Date().toISOString();
  Object.assign(trace.root, {
    status: 'aborted',
    endedAt,
    durationMs: Date.parse(endedAt) - Date.parse(trace.root.startedAt),
    error: traceError(error),
  });
  return Object.assign(trace, { status: 'aborted', endedAt });
}
