import { RunAbortedError } from '../errors/june-error.js';
import type { ToolSource, ToolSourceConnection } from '../capabilities/declaration.js';

/**
 * The tool sources one run has opened: each source connects at most once per run (keyed by
 * identity), a failed connection is forgotten (so a retry connects afresh), and every
 * connection is closed when the run ends.
 */
export class ToolSourcePool {
  private readonly connections = new Map<ToolSource, Promise<ToolSourceConnection>>();
  private readonly opened: ToolSourceConnection[] = [];
  private closed = false;

  /** @param signal aborts every connection attempt (the outermost run's signal). */
  constructor(private readonly signal: AbortSignal) {}

  /** How many connections were opened (for tests and traces). */
  get openedCount(): number {
    return this.opened.length;
  }

  /**
   * The source's connection, opening it if this run has not yet. The wait rejects with
   * {@link RunAbortedError} as soon as `waitSignal` aborts, while a shared connection goes on.
   */
  acquire(source: ToolSource, waitSignal: AbortSignal): Promise<ToolSourceConnection> {
    let connection = this.connections.get(source);
    if (!connection) {
      connection = source.connect({ signal: this.signal }).then(async (opened) => {
        if (this.closed) {
          await opened.close?.();
          throw new RunAbortedError('the run ended while connecting');
        }
        this.opened.push(opened);
        return opened;
      });
      this.connections.set(source, connection);
      connection.catch(() => {
        if (this.connections.get(source) === connection) this.connections.delete(source);
      });
    }
    return raceAbort(connection, waitSignal);
  }

  /** Closes every connection (once), after attempts still in flight settle. Never throws. */
  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.connections.values()]);
    const opened = this.opened.splice(0);
    await Promise.allSettled(opened.map(async (connection) => connection.close?.()));
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new RunAbortedError(signal.reason));
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
