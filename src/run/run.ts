import type { Tracer } from '@opentelemetry/api';
import type { Component, JuneElement } from '../elements/element.js';
import { WorkflowError } from '../errors/june-error.js';
import { runWorkflow, type RunHandle, type WorkflowRunOptions } from '../interpreter/run.js';
import type { JournalRecord } from '../journal/journal-record.js';
import type { JournalStore } from '../journal/journal-store.js';
import type { RunLease } from '../journal/run-lease.js';
import { journalEngine, type JournalTraceContext } from '../journal/run-journal.js';
import { runTelemetry } from '../telemetry/run-telemetry.js';
import type { TelemetryContent } from '../telemetry/span-attributes.js';
import type { SpanConsumer } from '../telemetry/span-consumer.js';

/** Options of {@link run}: the run's own, and where and how it keeps its journal. */
export interface RunOptions<OUTPUT = unknown> extends WorkflowRunOptions<OUTPUT> {
  /**
   * Where to keep the run's journal: every finished model call, tool call and approval, as
   * the run goes, so it can be resumed in another process (`resume`). `june run` passes a
   * file store (`.june/runs/<runId>/journal.jsonl`). @default no journal
   */
  journal?: JournalStore | false;
  /**
   * Takes up the run with this id again from its journal in `journal`: the workflow runs
   * from the start, every model and tool call that finished is answered from the journal
   * (nothing runs twice), recorded approval answers are given again, and pending approvals
   * are asked again. The run keeps its id; new records are appended.
   * @throws {WorkflowError} `journal-mismatch` (through `result`) when the workflow asks a
   *   model something else than the journal recorded.
   */
  resume?: string;
  /**
   * Answers every model call from a recorded journal (its records, or a journal file's
   * path), for regression tests; a call the recording does not have, or that asks something
   * else, fails the run with `journal-mismatch`. Tools run for real unless `replayTools`.
   */
  replay?: string | readonly JournalRecord[];
  /** With `replay`: answer tool calls from the recording too, without running them. @default false */
  replayTools?: boolean;
  /**
   * Makes the run the next run of this thread (an id of your own, such as a user's or a
   * chat's), kept in `journal`: the thread's agent starts from the conversation the thread's
   * last run left (before its own `messages` prop), and its conversation when it finishes is
   * kept for the next run. One run of a thread runs at a time: another fails with
   * `thread-busy` naming the run that holds it (or waits, with `waitForOwner`). A resumed run
   * stays in its thread. See docs/threads.md.
   * @throws {WorkflowError} `run-thread-invalid` (at once) without `journal`, or with `replay`;
   *   `thread-id-invalid` (through `result`) for an id that is not a file name.
   */
  thread?: string;
  /**
   * With `thread`: the `name` of the agent whose conversation the thread continues.
   * @default the run's first agent outside any other (not one inside a composite tool)
   */
  threadAgent?: string;
  /**
   * When another process (or run) holds the run in `journal` (a resume while it still runs
   * elsewhere): wait until it lets go, then take the run up, instead of failing with
   * `run-owned`. Aborting the run (`signal`, `handle.abort()`) stops the wait. @default false
   */
  waitForOwner?: boolean;
  /**
   * The run's lease, taken already with `journal.lease(runId)` (e.g. to read its journal
   * before deciding to run it, knowing no one else runs it meanwhile): the run uses it instead
   * of taking its own, and lets go of it when it ends. Only with `journal` (and the lease's
   * run id as `resume` or `runId`).
   */
  lease?: RunLease;
  /**
   * The hold of the run's `thread`, taken already with `journal.threadLease(thread, runId)`
   * (a host that refuses a second run of a thread before starting it): the run uses it
   * instead of taking its own, and lets go of it when it ends. Only with `thread`.
   */
  threadLease?: RunLease;
  /**
   * Where the run's OpenTelemetry spans go: this tracer, or `false` for none. A span per
   * trace node (run, agent, step, model call, tool call, `<Catch>` attempt, child runs under
   * their calls), with the GenAI semantic conventions, each started and ended as the run
   * goes; a run started while a span is active is its child; a resumed run links to the run
   * it resumes. See docs/observability.md.
   * @default the registered global tracer provider's tracer; with none registered, nothing is recorded or spent
   */
  tracer?: Tracer | false;
  /**
   * What the run's spans may carry besides names, ids, times, statuses, usage and errors:
   * `recordInputs` (step prompts, tool inputs), `recordOutputs` (step results, tool
   * outputs), redacted as the run's records are. @default neither
   */
  telemetry?: TelemetryContent;
}

/**
 * Runs a workflow. Before the first model call the tree is checked as far as it can be
 * without rendering your components (step placement and ids, agent models, capability
 * resolution), so a tree error never costs a token. `journal`, `resume` and `replay` make
 * the run's durable engine a journal ({@link journalEngine}); `engine` takes any other.
 *
 * @throws {WorkflowError} `run-workflow-invalid`, `run-props-invalid`, and `run-resume-invalid`
 *   (`resume` with `replay`, or with another `runId`; `engine` with a journal option; `lease`
 *   without `journal`), at once; every other error through `result`, among them `run-owned`
 *   when another process runs the run (see {@link JournalStore.lease}).
 * @example
 * ```tsx
 * const handle = run(<Release />, { onApproval: (request) => request.tool !== 'deploy' || undefined });
 * for await (const event of handle.events) if (event.type === 'text-delta') process.stdout.write(event.delta);
 * const { output, usage } = await handle.result;
 * ```
 */
export function run<OUTPUT = unknown>(
  workflow: JuneElement | Component,
  options: RunOptions<OUTPUT> = {},
): RunHandle<OUTPUT> {
  const {
    journal,
    resume,
    replay,
    replayTools,
    waitForOwner,
    lease,
    threadLease,
    tracer,
    telemetry,
    thread,
    threadAgent,
    ...rest
  } = options;
  checkJournalOptions(options);
  const spans = runTelemetry({ tracer, content: telemetry, resumed: resume !== undefined });
  if (spans) rest.consumers = [...(rest.consumers ?? []), spans];
  if (!journal && resume === undefined && replay === undefined) return runWorkflow(workflow, rest);
  const engine = journalEngine({
    ...(journal ? { store: journal } : {}),
    resume: resume !== undefined,
    ...(replay !== undefined ? { replay, replayTools: replayTools === true } : {}),
    ...(spans ? { traceContext: journalTraceContext(spans) } : {}),
    ...(waitForOwner ? { waitForOwner } : {}),
    ...(lease ? { lease } : {}),
    ...(thread !== undefined ? { thread } : {}),
    ...(threadLease ? { threadLease } : {}),
    ...(threadAgent !== undefined ? { threadAgent } : {}),
  });
  return runWorkflow(workflow, {
    ...rest,
    ...(resume !== undefined ? { runId: resume } : {}),
    engine,
  });
}

/** The spans' trace context, kept in the run's journal; a resumed run's span links to the recorded ones. */
function journalTraceContext(spans: SpanConsumer): JournalTraceContext {
  return {
    current: () => spans.traceparent(),
    resumedFrom: (traceparents) => spans.linkTo(traceparents),
  };
}

function checkJournalOptions(options: RunOptions<any>): void {
  if (options.resume !== undefined && options.replay !== undefined) {
    throw new WorkflowError(
      'run-resume-invalid',
      'june: run() takes resume or replay, not both: resume takes a run up again in its own journal; replay answers a new run from a recording.',
    );
  }
  if (
    options.resume !== undefined &&
    options.runId !== undefined &&
    options.runId !== options.resume
  ) {
    throw new WorkflowError(
      'run-resume-invalid',
      `june: a resumed run keeps its id: runId is "${options.runId}" but resume is "${options.resume}"; leave out runId.`,
    );
  }
  if (options.thread !== undefined && (!options.journal || options.replay !== undefined)) {
    throw new WorkflowError(
      'run-thread-invalid',
      options.journal
        ? `june: a replay is answered from its recording: run() takes thread or replay, not both.`
        : `june: thread "${options.thread}" is kept in a journal store: pass journal: fileJournalStore() (or memoryJournalStore()) with thread.`,
    );
  }
  if (options.lease && !options.journal) {
    throw new WorkflowError(
      'run-resume-invalid',
      `june: the lease option holds run ${options.lease.runId} in a journal store: pass that store as journal too.`,
    );
  }
  if (
    options.engine &&
    (options.journal || options.resume !== undefined || options.replay !== undefined)
  ) {
    throw new WorkflowError(
      'run-resume-invalid',
      'june: run() takes an engine or the journal options (journal, resume, replay), not both: pass journalEngine({ store, resume, replay }) as the engine instead.',
    );
  }
}
