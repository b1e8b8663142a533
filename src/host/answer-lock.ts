import { join } from 'node:path';
import { tryLeaseFile } from '../journal/lease-file.js';
import { takeLease } from '../journal/run-lease.js';

/** How often a Studio waiting for another Studio's answer to the same run looks again, in ms. */
const POLL_MS = 20;

/**
 * Lets one answer to a run be checked and written at a time, so two answers to the same call
 * given at once (an approve and a deny, or three clicks) can never both be taken, and a
 * stopped run is resumed once: within this Studio, answers to one run wait for each other in
 * a chain per run; across Studio processes over the same runs folder, the answer holds
 * `<runs>/<runId>/answering.lock` (a lease file: taken atomically, and taken over when the
 * Studio that held it is gone). Answers to different runs never wait for each other.
 *
 * @example
 * ```ts
 * const lock = new AnswerLock();
 * await lock.hold(runId, folder, async () => { check(); await append(); });
 * ```
 */
export class AnswerLock {
  /** Per run: the last answer's work, settled (never rejected). */
  readonly #chains = new Map<string, Promise<void>>();

  /**
   * Runs `work` once every earlier answer to `runId` settled, holding the run folder's lock
   * meanwhile. The folder must have been checked (it is trusted) before.
   */
  hold<T>(runId: string, folder: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#chains.get(runId) ?? Promise.resolve();
    const next = previous.then(() => locked(join(folder, 'answering.lock'), runId, work));
    const settled = next.then(
      () => {},
      () => {},
    );
    this.#chains.set(runId, settled);
    void settled.then(() => {
      if (this.#chains.get(runId) === settled) this.#chains.delete(runId);
    });
    return next;
  }
}

async function locked<T>(path: string, runId: string, work: () => Promise<T>): Promise<T> {
  const lock = await takeLease(
    () => tryLeaseFile(path, runId),
    () => new Error('unreachable: a waiting lease never fails as held'),
    { wait: true, pollMs: POLL_MS },
  );
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
