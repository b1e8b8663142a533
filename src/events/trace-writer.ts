import { join } from 'node:path';
import { isDelta } from './run-event-kinds.js';
import type { RunConsumer, RunOutcome } from './run-consumer.js';
import type { RunLogEvent } from './run-event.js';
import { emptyUsage } from '../models/usage.js';
import { applyEvent } from './apply-event.js';
import { liveTrace } from './live-trace.js';
import { TraceFileWriter } from '../trace/trace-file-writer.js';
import type { Trace, TraceError } from '../trace/trace-node.js';

/** Options of {@link traceWriter}. */
export interface TraceWriterOptions {
  /**
   * The folder that gets `<runId>.json`, relative to the current directory or absolute
   * (Studio reads `.june/runs`). @default '.june/runs'
   */
  dir?: string;
  /** More files that get the same trace. */
  paths?: string[];
  /** The shortest time between two writes while the run goes, in ms. @default 200 */
  minIntervalMs?: number;
  /**
   * Called once when a file cannot be written (the folder is a file, no space...).
   * @default a process warning
   */
  onError?: (error: unknown) => void;
}

/**
 * A run consumer that writes the run's trace to a file as the run goes (at most once per
 * `minIntervalMs`, and at once when a call starts to wait for an answer) and once more when
 * it ended, so Studio (`june studio`) shows a run started from a program the way it shows
 * one `june run` started. The trace is built from the events the writer gets (see
 * `applyEvent`); each write replaces the file whole.
 *
 * @example
 * ```ts
 * import { run, traceWriter } from 'june';
 * await run(<Release />, { consumers: [traceWriter({ dir: '.june/runs' })] }).result;
 * // then: npx june studio
 * ```
 */
export function traceWriter(options: TraceWriterOptions = {}): RunTraceWriter {
  return new RunTraceWriter(options);
}

/** What {@link traceWriter} makes: a {@link RunConsumer} that also tells its trace and its files. */
export class RunTraceWriter implements RunConsumer {
  readonly #options: TraceWriterOptions;
  readonly #live = liveTrace();
  #file: TraceFileWriter | undefined;
  #paths: string[] = [];

  constructor(options: TraceWriterOptions) {
    this.#options = options;
  }

  /** The files written, once the run started (the first is `<dir>/<runId>.json`). */
  get paths(): readonly string[] {
    return this.#paths;
  }

  /** The trace as the events so far built it (live: copy it to keep it), once the run started. */
  get trace(): Trace | undefined {
    return this.#live.trace;
  }

  event(event: RunLogEvent): void {
    applyEvent(this.#live, event);
    const trace = this.#live.trace;
    if (!trace) return;
    if (!this.#file) {
      this.#paths = [
        join(this.#options.dir ?? join('.june', 'runs'), `${trace.runId}.json`),
        ...(this.#options.paths ?? []),
      ];
      this.#file = new TraceFileWriter({
        paths: this.#paths,
        snapshot: () => trace,
        ...(this.#options.minIntervalMs !== undefined
          ? { minIntervalMs: this.#options.minIntervalMs }
          : {}),
      });
    }
    // a call that starts to wait is written at once: the run may now wait for hours, and
    // june approve, june runs and Studio read the wait from the file, even after a kill -9
    if (event.type === 'approval-request') this.#file.writeNow();
    else if (!isDelta(event)) this.#file.schedule();
  }

  /** Writes the final trace. Never rejects: a file it cannot write goes to `onError`. */
  async end(_outcome: RunOutcome): Promise<void> {
    const trace = this.#live.trace;
    if (!this.#file || !trace) return;
    await this.#file.close(trace).catch((error: unknown) => {
      if (this.#options.onError) this.#options.onError(error);
      else process.emitWarning(`june: cannot write the trace ${this.#paths[0]}: ${String(error)}`);
    });
  }

  /**
   * For a process that quits before the run stopped: settles the trace as `aborted` with
   * `error` (every node still open closes, the innermost with `left`) and writes it at once,
   * synchronously. Never throws.
   */
  abandon(error: TraceError, left: TraceError): void {
    const trace = this.#live.trace;
    if (!trace || !this.#file) return;
    applyEvent(this.#live, {
      type: 'run-finish',
      runId: trace.runId,
      nodeId: trace.root.id,
      at: Date.now(),
      status: 'aborted',
      usage: trace.root.usage ?? emptyUsage(),
      error,
      abandoned: { error: left, toolCallIds: [] },
    });
    this.#file.closeNow(trace);
  }
}
