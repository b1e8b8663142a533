import { RunAbortedError } from '../errors/june-error.js';
import type { ToolSource, ToolSourceConnection } from '../capabilities/declaration.js';

/**
 * The tool sources one run has opened: each source connects at most once per run (keyed by
 * identity), a failed connection is forgotten (so a retry connects afresh), and every
 * connection is closed when the run ends.
 *
 * @example
 * ```ts
 * const pool = new ToolSourcePool(runSignal);
 * const { tools } = await pool.acquire(Weather.source, runSignal);
 * // ... when the run ends, however it ends:
 * await pool.closeAll();
 * ```
 */
export class ToolSourcePool {
  private readonly connections = new Map<ToolSource, Promise<ToolSourceConnection>>();
  private readonly opened: ToolSourceConnection[] = [];
  /**
   * Aborts every `connect` in flight: when the run aborts, or ends first. Made by the first
   * `acquire` (most runs connect to nothing, and then the pool costs nothing).
   */
  private controller?: AbortController;
  private closed = false;

  /** @param signal the outermost run's signal: aborting it aborts every connection attempt. */
  constructor(private readonly signal: AbortSignal) {}

  private connectSignal(): AbortSignal {
    if (this.controller) return this.controller.signal;
    const controller = (this.controller = new AbortController());
    const { signal } = this;
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    return controller.signal;
  }

  /**
   * The source's connection, opening it if this run has not yet (or if the last attempt
   * failed). The wait rejects with {@link RunAbortedError} as soon as `waitSignal` aborts,
   * while a connection other agents share goes on.
   */
  acquire(source: ToolSource, waitSignal: AbortSignal): Promise<ToolSourceConnection> {
    if (waitSignal.aborted) return Promise.reject(new RunAbortedError(waitSignal.reason));
    let connection = this.connections.get(source);
    if (!connection) {
      if (this.closed)
        return Promise.reject(
          new RunAbortedError('the run ended before the tool source connected'),
        );
      const signal = this.connectSignal();
      connection = (async () => {
        const opened = await source.connect({ signal });
        if (this.closed) {
          await opened.close?.();
          throw new RunAbortedError('the run ended while the tool source connected');
        }
        this.opened.push(opened);
        return opened;
      })();
      this.connections.set(source, connection);
      const current = connection;
      current.catch(() => {
        if (this.connections.get(source) === current) this.connections.delete(source);
      });
    }
    return raceAbort(connection, waitSignal);
  }

  /**
   * Closes every connection, once: aborts the attempts still in flight and closes the
   * connections already open, at once, then waits for all of it (an attempt that settles
   * later closes what it opened itself). A `connect` that ignores its signal delays only
   * the end of this wait, never the closing of the others. Never throws (a failing `close`
   * is ignored).
   */
  async closeAll(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.connections.size === 0) return; // nothing connected: no error to build, nothing to abort
    const pending = [...this.connections.values()];
    if (this.controller && !this.controller.signal.aborted)
      this.controller.abort(new RunAbortedError('the run ended'));
    const opened = this.opened.splice(0);
    await Promise.allSettled([
      ...opened.map(async (connection) => connection.close?.()),
      ...pending,
    ]);
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new RunAbortedError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
