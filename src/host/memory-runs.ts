import type { SourceInbox } from '../approvals/approval-source.js';
import { createElement, type Component } from '../elements/element.js';
import { isDelta } from '../events/run-event-kinds.js';
import type { RunHandle } from '../interpreter/run.js';
import { memoryJournalStore } from '../journal/memory-journal-store.js';
import { run } from '../run/run.js';
import { scriptedModel } from '../testing/scripted-model.js';
import type { HostRunRequest } from './run-host.js';
import type { RunSummary, StudioEvent } from './run-list.js';
import { summarizeTrace } from './summarize-trace.js';
import { runMissing } from './wait-for-end.js';

/** One run of a {@link MemoryRuns}: what started it, its handle, and its inbox once connected. */
export interface MemoryRun {
  request: HostRunRequest & { runId: string };
  handle: RunHandle;
  inbox?: SourceInbox;
  updatedAt: string;
  /** Its list entry as last sent, as JSON. */
  entry?: string;
}

/**
 * The runs of `memoryRunHost`, by id: each one `run()` of one of `workflows` with one memory
 * journal for all (so an aborted run can be resumed from it), connected to an approval
 * source of the host's (`host`), whose inbox takes the host's answers. `onChange` hears of
 * each change of a run's list entry (its events, deltas aside).
 *
 * @example
 * ```ts
 * const runs = new MemoryRuns({ release: Release }, (event) => console.log(event.type));
 * runs.launch({ workflow: 'release', runId: 'r1' }, false);
 * ```
 */
export class MemoryRuns {
  readonly #runs = new Map<string, MemoryRun>();
  readonly #journal = memoryJournalStore();
  readonly #workflows: Record<string, Component>;
  readonly #onChange: (event: StudioEvent) => void;

  constructor(workflows: Record<string, Component>, onChange: (event: StudioEvent) => void) {
    this.#workflows = workflows;
    this.#onChange = onChange;
  }

  /** True when it knows `runId`. */
  has(runId: string): boolean {
    return this.#runs.has(runId);
  }

  /** The run, or `studio-run-missing` (404). @throws {StudioRequestError} */
  get(runId: string): MemoryRun {
    const known = this.#runs.get(runId);
    if (!known) throw runMissing(runId);
    return known;
  }

  /** Every run, in the order they started. */
  all(): MemoryRun[] {
    return [...this.#runs.values()];
  }

  /** The run's list entry, from its trace now. */
  entryOf(known: MemoryRun): RunSummary {
    return summarizeTrace(known.handle.trace(), known.request.runId, known.updatedAt);
  }

  /**
   * Runs the request's workflow (it must be one of `workflows`); with `resume`, takes the
   * aborted run of its id up again from the journal.
   */
  launch(request: MemoryRun['request'], resume: boolean): MemoryRun {
    const workflow = this.#workflows[request.workflow]!;
    const known = { request, updatedAt: new Date().toISOString() } as MemoryRun;
    known.handle = run(createElement(workflow, request.props ?? {}), {
      workflow: request.workflow,
      journal: this.#journal,
      ...(resume ? { resume: request.runId } : { runId: request.runId }),
      ...(request.script ? { model: scriptedModel(request.script) } : {}),
      approvalSources: [{ name: 'host', connect: (inbox) => void (known.inbox = inbox) }],
    });
    known.handle.result.catch(() => {});
    this.#runs.set(request.runId, known);
    this.#changed(known);
    void (async () => {
      for await (const event of known.handle.events) if (!isDelta(event)) this.#changed(known);
      this.#changed(known);
    })();
    return known;
  }

  #changed(known: MemoryRun): void {
    known.updatedAt = new Date().toISOString();
    const entry = this.entryOf(known);
    const text = JSON.stringify(entry);
    if (text === known.entry) return;
    known.entry = text;
    this.#onChange({ type: 'run', run: entry });
  }
}
