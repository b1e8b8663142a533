import { RunAbortedError, errorData } from '../errors/index.js';
import { unstoppedWork } from '../interpreter/abort-grace.js';
import type { RunTraceWriter } from '../events/index.js';
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
 * The stop signals the process gets from now on, held until {@link QueuedStopSignals.handle}
 * names who handles them: a signal that comes between a run's start and its follow loop is
 * handled then, in order, not by Node's default (exiting at once, the trace left running).
 */
export interface QueuedStopSignals {
  /** Hands the queued signals, then every later one, to `onSignal`. */
  handle(onSignal: (signal: StopSignal) => void): void;
  /** Stops listening. */
  off(): void;
}

/**
 * Starts listening for stop signals, queueing them (see {@link QueuedStopSignals}).
 *
 * @example
 * ```ts
 * const signals = queuedStopSignals();
 * const handle = start();
 * signals.handle((signal) => handle.abort(stopSignals[signal].reason));
 * ```
 */
export function queuedStopSignals(): QueuedStopSignals {
  const queued: StopSignal[] = [];
  let handler: ((signal: StopSignal) => void) | undefined;
  const off = onStopSignals((signal) => (handler ? handler(signal) : queued.push(signal)));
  return {
    handle(onSignal) {
      handler = onSignal;
      for (const signal of queued.splice(0)) onSignal(signal);
    },
    off,
  };
}

/**
 * Settles a run's trace file as it must be left when June quits before the run stopped (a
 * second stop signal): every open node closed as `aborted`, and the run's error naming what
 * was still running; written at once.
 */
export function writeAbandonedTrace(
  writer: RunTraceWriter,
  reason: string,
  signal: StopSignal,
): void {
  const trace = writer.trace;
  if (!trace) return;
  const unstopped = unstoppedWork(trace.root, { calls: [], components: [] });
  const still = unstopped.length > 0 ? ` (still running: ${unstopped.join(', ')})` : '';
  const error = new RunAbortedError(
    `${reason}; a second ${signal} ended June before the run had stopped${still}`,
  );
  const left = new RunAbortedError(
    'this had not stopped 0 ms after the abort; the run settled without it',
  );
  writer.abandon(errorData(error), errorData(left));
}
