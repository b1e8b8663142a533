import type { RunLogEvent } from '../events/run-event.js';
import type { DbosSdk } from './load-dbos.js';
import { EVENTS_STREAM } from './names.js';
import type { WorkerShutdown } from './worker-shutdown.js';

/**
 * One value of a run's event stream: a batch of events in order, or the mark a worker writes
 * when it starts (or recovers) the run: a second `start` means the run was recovered and its
 * events are told again from the beginning.
 */
export type StreamedRunEvents = { events: RunLogEvent[] } | { start: { executor: string } };

/**
 * Writes a run's events to its DBOS stream for followers in other processes. It runs as one
 * long DBOS step beside the run (`publish` enqueues, the step writes in batches), so events
 * take no step numbers of their own: they are published at least once (a recovered run tells
 * them again, after a new `start` mark), never replayed from the record. Once its worker
 * stops, it publishes nothing more and leaves the stream open: the run is not over, a
 * recovery tells it again.
 */
export class EventPublisher {
  readonly #dbos: DbosSdk['DBOS'];
  #queue: RunLogEvent[] = [];
  #wake: (() => void) | undefined;
  #closed = false;
  readonly #shutdown: WorkerShutdown | undefined;

  constructor(dbos: DbosSdk['DBOS'], shutdown?: WorkerShutdown) {
    this.#dbos = dbos;
    this.#shutdown = shutdown;
  }

  /** Queues one event (dropped once closed, or once the worker stops). */
  publish(event: RunLogEvent): void {
    if (this.#closed || this.#shutdown?.stopping) return;
    this.#queue.push(event);
    this.#wake?.();
  }

  /** No more events: the step writes what is queued, closes the stream and ends. */
  close(): void {
    this.#closed = true;
    this.#wake?.();
  }

  /** Starts the publishing step (its step number taken now); settles when the stream is closed. */
  start(): Promise<number> {
    const drain = () => (this.#shutdown ? this.#shutdown.hold(this.#drain()) : this.#drain());
    return this.#dbos.runStep(drain, { name: 'june.events', retriesAllowed: false });
  }

  async #drain(): Promise<number> {
    let written = 0;
    try {
      await this.#write({ start: { executor: this.#dbos.executorID } });
      for (;;) {
        // a stopping worker's run is not over: the stream stays open for its recovery
        if (this.#shutdown?.stopping) return written;
        if (this.#queue.length > 0) {
          const events = this.#queue;
          this.#queue = [];
          await this.#write({ events });
          written += events.length;
          continue;
        }
        if (this.#closed) break;
        await new Promise<void>((resolve) => (this.#wake = resolve));
        this.#wake = undefined;
      }
      await this.#dbos.closeStream(EVENTS_STREAM);
    } catch {
      // a cancelled workflow may not write any more: followers read until it ended
      this.#closed = true;
    }
    return written;
  }

  #write(value: StreamedRunEvents): Promise<void> {
    return this.#dbos.writeStream(EVENTS_STREAM, value);
  }
}
