import type { Trace } from '../trace/trace-node.js';
import type { TraceLookup } from './run-directory.js';
import { runState } from './run-state.js';
import { StudioRequestError } from './studio-request-error.js';

const POLL_MS = 100;

/**
 * Reads a run's trace every 100 ms until it ended (`runState` `succeeded`, `failed` or
 * `aborted`), and gives it: what `RunHost.result` does over a host that keeps traces.
 * @throws {StudioRequestError} `studio-run-missing` (404) for a run `readTrace` does not have;
 *   the `signal`'s reason when it aborts first.
 */
export async function waitForEnd(
  runId: string,
  readTrace: (runId: string) => Promise<TraceLookup>,
  signal?: AbortSignal,
): Promise<Trace> {
  for (;;) {
    signal?.throwIfAborted();
    const found = await readTrace(runId);
    if ('missing' in found) throw runMissing(runId);
    if ('text' in found) {
      const trace = JSON.parse(found.text) as Trace;
      const state = runState(trace);
      if (state !== 'running' && state !== 'waiting') return trace;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** `studio-run-missing` (404): the host has no run `runId`. */
export function runMissing(runId: string): StudioRequestError {
  return new StudioRequestError(
    'studio-run-missing',
    `june: there is no run "${runId}" here; the list of runs has the ones there are.`,
    404,
  );
}
