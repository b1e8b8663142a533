import type { Component } from '../elements/element.js';
import { JuneError, SystemError } from '../errors/june-error.js';
import { localUser } from '../approvals/local-user.js';
import { newRunId, isRunId } from '../engine/run-id.js';
import { answerRefused } from './answer-refusal.js';
import {
  checkAnswerShape,
  editOf,
  type AnswerOutcome,
  type ApprovalAnswerInput,
} from './approval-desk.js';
import { HostListeners } from './host-listeners.js';
import { MemoryRuns, type MemoryRun } from './memory-runs.js';
import type { HostRunRequest, RunHost } from './run-host.js';
import { runState } from './run-state.js';
import { StudioRequestError } from './studio-request-error.js';
import { untilAborted } from './until-aborted.js';
import { approvalsInTrace, heldInTrace } from './waiting-approvals.js';

/** Options of {@link memoryRunHost}. */
export interface MemoryRunHostOptions {
  /** The workflows it can start, by the name {@link RunHost.start} takes: their root components. */
  workflows: Record<string, Component>;
}

/**
 * A {@link RunHost} in this process's memory: each run is `run()` of one of `workflows`
 * with a memory journal ({@link MemoryRuns}), answered through an approval source of the
 * host's own (`host`), listed and read from its live trace; `cancel` aborts it and `resume`
 * takes an aborted run up again from its journal. Nothing outlives the process. The third
 * host of the contract suite, it runs the entry points' host tests without a folder or a
 * database.
 *
 * @example
 * ```ts
 * const host = memoryRunHost({ workflows: { release: Release } });
 * const runId = await host.start({ workflow: 'release', script });
 * ```
 */
export function memoryRunHost(options: MemoryRunHostOptions): RunHost {
  const listeners = new HostListeners();
  const runs = new MemoryRuns(options.workflows, listeners.send);
  return {
    label: 'memory',
    async start(request) {
      const runId = checkedStart(options, runs, request);
      runs.launch({ ...request, runId }, false);
      return runId;
    },
    list: async () =>
      runs
        .all()
        .map((known) => runs.entryOf(known))
        .sort((a, b) => b.startedAt.localeCompare(a.startedAt) || a.runId.localeCompare(b.runId)),
    readTrace: async (runId) =>
      runs.has(runId)
        ? { text: JSON.stringify(runs.get(runId).handle.trace()) }
        : { missing: true },
    subscribe: (onChange) => listeners.add(onChange),
    async *events(runId, follow = {}) {
      yield* untilAborted(runs.get(runId).handle.events, follow.signal);
    },
    async decisions(runId) {
      const trace = runs.get(runId).handle.trace();
      const waiting = approvalsInTrace(trace).filter((approval) => approval.status === 'pending');
      if (waiting.length === 0) return { runId, state: 'none', resumable: false, waiting };
      const held = heldInTrace(trace);
      return { runId, state: 'live', resumable: false, waiting, ...(held.length ? { held } : {}) };
    },
    answer: async (runId, answer) => answerRun(runs.get(runId), runId, answer),
    async cancel(runId) {
      runs.get(runId).handle.abort('cancelled through its run host');
    },
    async result(runId) {
      const { handle } = runs.get(runId);
      await handle.result.catch(() => {});
      return handle.trace();
    },
    async resume(runId) {
      const known = runs.get(runId);
      const state = runState(known.handle.trace());
      if (state !== 'aborted')
        throw new SystemError(
          'run-host-unsupported',
          `june: run "${runId}" is ${state}; only an aborted run is resumed.`,
        );
      runs.launch(known.request, true);
    },
    async close() {
      for (const known of runs.all()) known.handle.abort('its run host closed');
      await Promise.all(runs.all().map((known) => known.handle.result.catch(() => {})));
    },
  };
}

/**
 * The id of a run the request may start: its workflow is one of `options.workflows`, and its
 * id (given, or a new one) names no run yet.
 * @throws {StudioRequestError} `studio-workflow-unknown` (404); `studio-request-invalid` (400).
 */
function checkedStart(
  options: MemoryRunHostOptions,
  runs: MemoryRuns,
  request: HostRunRequest,
): string {
  if (options.workflows[request.workflow] === undefined)
    throw new StudioRequestError(
      'studio-workflow-unknown',
      `june: no workflow "${request.workflow}" in this host; it starts ${Object.keys(options.workflows).join(', ')}.`,
      404,
    );
  const runId = request.runId ?? newRunId();
  if (runs.has(runId) || !isRunId(runId))
    throw new StudioRequestError(
      'studio-request-invalid',
      `june: "${runId.slice(0, 200)}" is not a new run id here; give another one, or none for a new one.`,
      400,
    );
  return runId;
}

/**
 * Gives the answer to the run's inbox. An answer the tool's schemas refuse (an edit that does
 * not fit) is a 400 `studio-request-invalid` with the inbox's message; one the inbox does not
 * apply (answered already, withdrawn, unknown) a 409 `studio-approval-unknown`.
 */
function answerRun(known: MemoryRun, runId: string, answer: ApprovalAnswerInput): AnswerOutcome {
  checkAnswerShape(runId, answer);
  const by = answer.answeredBy ?? localUser();
  let result;
  try {
    result = known.inbox!.answer(answer.key, {
      approved: answer.approved,
      ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
      ...editOf(answer),
      ...(by !== undefined ? { answeredBy: by } : {}),
    });
  } catch (error) {
    if (!JuneError.isInstance(error)) throw error;
    throw new StudioRequestError(
      'studio-request-invalid',
      error.message.replace(/^june: /, `june: run "${runId}": `),
      400,
    );
  }
  if (result.status === 'applied') return { delivered: 'live' };
  const why =
    result.status === 'answered'
      ? 'it was answered already, and an answer counts once'
      : result.status === 'withdrawn'
        ? 'withdrawn'
        : 'never asked';
  throw answerRefused({
    status: result.status,
    message: `june: run "${runId}" waits for no approval of the call "${answer.key}" (${why}); reload the run to see what it waits for.`,
  });
}
