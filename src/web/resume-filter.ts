import type { RunLogEvent } from '../events/run-event.js';
import type { UIToolCalls } from './ui-tool-calls.js';

/** What {@link ResumeFilter} needs to know about the request that resumed the run. */
export interface ResumeFilterOptions {
  /**
   * Step paths whose start is new work (a chat turn for a new user message): from such a
   * step-start on, the run's events are new.
   */
  newSteps?: readonly string[];
  /**
   * The ids of the approval requests answered now, for a run that was not resumed but goes
   * on (a run in a database): its earlier answers are live events too, so only these turn
   * it new. @default every answer that is not `replayed`
   */
  answeredNow?: readonly string[];
}

/**
 * Tells, for a resumed run, which events the browser has not seen. A resumed run is
 * evaluated again from the start and replays from its journal what already happened: the
 * same text, tool calls and results the browser was sent before. Those are held back. A run
 * (or child run) turns new at its first event that is not a replay: an answer given now
 * (an `approval-response` that is not `replayed`), a step listed in `newSteps`, a composite
 * call of a new run, or the result of a composite call whose child run turned new. From
 * there on, every event of that run is new: a run evaluates one step at a time, so what
 * follows in it comes after the answer.
 */
export class ResumeFilter {
  readonly #fresh = new Set<string>();
  readonly #newSteps: ReadonlySet<string>;
  readonly #answeredNow: ReadonlySet<string> | undefined;

  constructor(
    private readonly calls: UIToolCalls,
    options: ResumeFilterOptions = {},
  ) {
    this.#newSteps = new Set(options.newSteps ?? []);
    if (options.answeredNow) this.#answeredNow = new Set(options.answeredNow);
  }

  /** True when run `runId` has turned new: the browser has seen none of its events from here on. */
  isFresh(runId: string): boolean {
    return this.#fresh.has(runId);
  }

  /** True when the browser has not seen `event` (call after `calls` saw it). */
  isNew(event: RunLogEvent): boolean {
    if (this.#fresh.has(event.runId)) return true;
    if (this.#turnsNew(event)) this.#fresh.add(event.runId);
    return this.#fresh.has(event.runId);
  }

  #turnsNew(event: RunLogEvent): boolean {
    switch (event.type) {
      case 'approval-response':
        return this.#answeredNow ? this.#answeredNow.has(event.id) : event.replayed !== true;
      case 'step-start':
        return this.#newSteps.has(event.step);
      case 'run-start': {
        const parent = this.calls.parentOf(event.runId);
        return parent !== undefined && this.#fresh.has(parent.runId);
      }
      case 'tool-result':
      case 'tool-error': {
        const call = this.calls.find(event.runId, event.toolCallId);
        return call?.child !== undefined && this.#fresh.has(call.child);
      }
      default:
        return false;
    }
  }
}
