import type { RunLogEvent } from '../events/run-event.js';
import type { DbosSdk } from './load-dbos.js';
import { EVENTS_BATCH_MS, EVENTS_STREAM } from './names.js';
import type { WorkerShutdown } from './worker-shutdown.js';

/**
 * One value of a run's event stream: a batch of events in order. The first batch a worker
 * writes for a run carries `first` (the worker's executor id): a second `first` means the run
 * was recovered and its events are told again from the beginning. `{ start }` alone is the
 * mark workers of June 0.1 wrote before their first batch, with the same meaning.
 */
export type StreamedRunEvents =
  { events: RunLogEvent[]; first?: { executor: string } } | { start: { executor: string } };

/**
 * Writes a run's events to its DBOS stream for followers in other processes. It runs as one
 * long DBOS step beside the run (`publish` enqueues, the step writes in batches), so events
 * take no step numbers of their own: they are published at least once (a recovered run tells
 * them again, its first batch marked `first`), never replayed from the record. Each batch is
 * one write (one transaction: DBOS's owner check and the insert): the first carries the
 * mark of a new telling, and the stream is not closed at the end, since a follower's read
 * ends when the run's workflow has ended and nothing more is written. A batch gathers the
 * events published within {@link EVENTS_BATCH_MS} of its first (a run's events come in
 * bursts between model calls), except the last, written as soon as the run's own
 * `run-finish` is queued or the run closes the publisher; values
 * are written as plain JSON (DBOS's `portable` format: events are plain JSON already, and
 * readers parse by each value's recorded format). Once its worker stops, it publishes
 * nothing more: the run is not over, a recovery tells it again.
 */
export class EventPublisher {
  readonly #dbos: DbosSdk['DBOS'];
  readonly #runId: string | undefined;
  #queue: RunLogEvent[] = [];
  #wake: (() => void) | undefined;
  /** Ends the wait of a batch for more events (set while it waits). */
  #flush: (() => void) | undefined;
  /** The run's own `run-finish` is queued: no batch waits any more. */
  #finished = false;
  #closed = false;
  readonly #shutdown: WorkerShutdown | undefined;
  /** Aborted when DBOS cancels the run's workflow (watched from the publishing step). */
  readonly #cancel = new AbortController();
  /** Settles {@link EventPublisher.written}. */
  #drained!: () => void;
  readonly #written = new Promise<void>((resolve) => (this.#drained = resolve));

  /** Made in the run's workflow (whose id is the run id). */
  constructor(dbos: DbosSdk['DBOS'], shutdown?: WorkerShutdown) {
    this.#dbos = dbos;
    this.#runId = dbos.workflowID;
    this.#shutdown = shutdown;
  }

  /**
   * Queues one event (dropped once closed, or once the worker stops). The run's own
   * `run-finish` is its last event: its batch is written without waiting for more.
   */
  publish(event: RunLogEvent): void {
    if (this.#closed || this.#shutdown?.stopping) return;
    this.#queue.push(event);
    this.#wake?.();
    if (event.type === 'run-finish' && event.runId === this.#runId) {
      this.#finished = true;
      this.#flush?.();
    }
  }

  /** No more events: the step writes what is queued and ends. */
  close(): void {
    this.#closed = true;
    this.#wake?.();
    this.#flush?.();
  }

  /**
   * Starts the publishing step (its step number taken now). The promise it returns settles
   * once the step is recorded; {@link EventPublisher.written} once every event is.
   */
  start(): Promise<number> {
    const drain = () => (this.#shutdown ? this.#shutdown.hold(this.#drain()) : this.#drain());
    const step = this.#dbos.runStep(drain, { name: 'june.events', retriesAllowed: false });
    // a step recorded before (a recovered run) or refused returns without draining
    step.then(this.#drained, this.#drained);
    return step;
  }

  /**
   * Settles once the step has written every event it will (after {@link EventPublisher.close}),
   * or returned without writing (recorded by an earlier telling, or refused): the run's
   * workflow may end then, so a follower, which reads until the workflow ended, has read every
   * event. Unlike the promise of {@link EventPublisher.start}, it does not wait for DBOS to
   * record the step's own output (a transaction of 4 statements), which a recovery of the run
   * does not need once the workflow ended. Never rejects.
   */
  get written(): Promise<void> {
    return this.#written;
  }

  /**
   * Fires when DBOS cancels the run's workflow (`june cancel`): the publishing step runs as
   * long as the run, and DBOS watches its workflow for cancellation while it runs (one poll
   * of the workflows' statuses for all the steps of the worker that watch).
   */
  get cancelSignal(): AbortSignal {
    return this.#cancel.signal;
  }

  async #drain(): Promise<number> {
    const cancelled = this.#dbos.stepStatus?.cancelSignal;
    cancelled?.addEventListener('abort', () => this.#cancel.abort(cancelled.reason), {
      once: true,
    });
    let written = 0;
    try {
      for (;;) {
        // a stopping worker's run is not over: what it did is told again by its recovery
        if (this.#shutdown?.stopping) return written;
        if (this.#queue.length > 0) {
          await this.#gather();
          if (this.#shutdown?.stopping) return written;
          const events = this.#queue;
          this.#queue = [];
          await this.#write(
            written === 0 ? { events, first: { executor: this.#dbos.executorID } } : { events },
          );
          written += events.length;
          continue;
        }
        if (this.#closed) break;
        await new Promise<void>((resolve) => (this.#wake = resolve));
        this.#wake = undefined;
      }
    } catch {
      // a cancelled workflow may not write any more: followers read until it ended
      this.#closed = true;
    }
    this.#drained();
    return written;
  }

  /** Waits up to {@link EVENTS_BATCH_MS} for more events of the same burst (not at the run's end). */
  async #gather(): Promise<void> {
    if (this.#closed || this.#finished) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, EVENTS_BATCH_MS);
      this.#flush = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.#flush = undefined;
  }

  #write(value: StreamedRunEvents): Promise<void> {
    return this.#dbos.writeStream(EVENTS_STREAM, value, { serializationType: 'portable' });
  }
}
