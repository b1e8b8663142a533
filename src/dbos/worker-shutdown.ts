import type { RunHandle } from '../interpreter/run.js';

/** How long a stopping worker waits for its runs to settle beyond their own abort grace, in ms. */
const SETTLE_MARGIN_MS = 2000;

/**
 * A worker's stop, as its runs see it. Stopping a worker must do two things that pull apart:
 * the work of its runs in flight stops now (a `<Bash>` command ends, an MCP server closes, a
 * model call is cancelled: their abort signals fire), and yet DBOS records nothing of how
 * that work ended, so the runs stay pending, exactly as after a crash, and a worker started
 * again with the same executor id takes them up where their records end.
 *
 * So, once {@link stop} begins, every DBOS step and workflow body of this worker passed
 * through {@link hold} never settles for DBOS, while June's run is aborted and settles as
 * usual, within its abort grace.
 *
 * @example
 * ```ts
 * const shutdown = new WorkerShutdown();
 * registerRunWorkflow(DBOS, workflows, secrets, shutdown);
 * // on SIGTERM:
 * const pending = await shutdown.stop('the worker is stopping', 5000);
 * await DBOS.shutdown();
 * ```
 */
export class WorkerShutdown {
  #stopping = false;
  readonly #runs = new Map<string, RunHandle>();

  /** True once {@link stop} began. */
  get stopping(): boolean {
    return this.#stopping;
  }

  /**
   * `work` as DBOS should see it: settling as `work` does when it settles before the worker
   * began to stop, and never after (the run stays pending for recovery).
   */
  hold<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      work.then(
        (value) => {
          if (!this.#stopping) resolve(value);
        },
        (error: unknown) => {
          if (!this.#stopping) reject(error);
        },
      );
    });
  }

  /** A run started on this worker: the stop aborts it. Returns what forgets it (once it settled). */
  track(runId: string, handle: RunHandle): () => void {
    this.#runs.set(runId, handle);
    return () => {
      if (this.#runs.get(runId) === handle) this.#runs.delete(runId);
    };
  }

  /**
   * Begins the stop: aborts every run in flight with `reason` and waits until each has
   * settled (each run settles within its abort grace, `abortGraceMs`; this waits at most
   * `graceMs` and a little more).
   *
   * @returns the ids of the runs that were in flight: they stay pending in the database.
   */
  async stop(reason: string, graceMs: number): Promise<string[]> {
    this.#stopping = true;
    const runs = [...this.#runs];
    for (const [, handle] of runs) handle.abort(reason);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(runs.map(([, handle]) => handle.result)),
      new Promise((resolve) => (timer = setTimeout(resolve, graceMs + SETTLE_MARGIN_MS))),
    ]);
    clearTimeout(timer);
    return runs.map(([runId]) => runId);
  }
}
