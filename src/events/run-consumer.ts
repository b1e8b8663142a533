import type { LanguageModelUsage } from 'ai';
import type { Trace } from '../trace/trace-node.js';
import type { RunLogEvent } from './run-event.js';

/**
 * How a run ended, as a consumer's `end` gets it: its final trace (the reduction of every
 * event the consumer was given), its usage in tokens, and its results when it succeeded
 * (`steps`, `output`, as `handle.result` gives them) or its error when it did not.
 */
export interface RunOutcome {
  trace: Trace;
  usage: LanguageModelUsage;
  /** Every step's result and the run's output, when it succeeded. */
  result?: { steps: Record<string, unknown>; output: unknown };
  /** The error `handle.result` rejects with, when it failed or was aborted. */
  error?: unknown;
}

/**
 * Follows one run's events as they happen: a progress printer, a trace writer, an
 * OpenTelemetry exporter, a UI stream. Attach consumers with `run(el, { consumers })`; with
 * none attached, the run spends nothing on them.
 *
 * @example
 * ```ts
 * const steps: RunConsumer = {
 *   event: (event) => {
 *     if (event.type === 'step-finish') console.log(event.step, event.status, event.at);
 *   },
 *   end: ({ trace }) => console.log(trace.status),
 * };
 * await run(<Release />, { consumers: [steps] }).result;
 * ```
 */
export interface RunConsumer {
  /**
   * Each event of the run and its child runs, in order, synchronously, as it happens
   * (redacted as the run's `redact` option says). Must not throw: an error thrown here is
   * reported as a process warning and the run goes on.
   */
  event(event: RunLogEvent): void;
  /**
   * Once, after the run settled and before `handle.result` settles (so a program that
   * awaits the result finds a file written, an exporter flushed). An error thrown or a
   * rejection is reported as a process warning; the run's result stays as it was.
   */
  end?(outcome: RunOutcome): void | Promise<void>;
  /**
   * Runs `work`, the model calls of the trace node `nodeId` (a step, whose `step-start` the
   * consumer has had), inside whatever the consumer keeps for that node: the OpenTelemetry
   * exporter makes the step's span the active context there, so the AI SDK's own spans
   * (`experimental_telemetry`) nest under it. Must call `work` once and return what it
   * returns. Leave it out when there is nothing to put around the work.
   */
  within?<T>(nodeId: string, work: () => T): T;
}
