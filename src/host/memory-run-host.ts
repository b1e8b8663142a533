import { createElement, type Component } from '../elements/element.js';
import { JuneError, SystemError } from '../errors/june-error.js';
import { isDelta } from '../events/run-event-kinds.js';
import type { SourceInbox } from '../approvals/approval-source.js';
import { localUser } from '../approvals/local-user.js';
import { newRunId, isRunId } from '../engine/run-id.js';
import type { RunHandle } from '../interpreter/run.js';
import { memoryJournalStore } from '../journal/memory-journal-store.js';
import { run } from '../run/run.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { answerRefused } from './answer-refusal.js';
import { checkAnswerShape, editOf } from './approval-desk.js';
import { HostListeners } from './host-listeners.js';
import type { HostRunRequest, RunHost } from './run-host.js';
import type { RunSummary } from './run-list.js';
import { runState } from './run-state.js';
import { StudioRequestError } from './studio-request-error.js';
import { summarizeTrace } from './summarize-trace.js';
import { untilAborted } from './until-aborted.js';
import { approvalsInTrace } from './waiting-approvals.js';
import { runMissing } from './wait-for-end.js';

/** Options of {@link memoryRunHost}. */
export interface MemoryRunHostOptions {
  /** The workflows it can start, by the name {@link RunHost.start} takes: their root components. */
  workflows: Record<string, Component>;
}

interface MemoryRun {
  request: HostRunRequest & { runId: string };
  handle: RunHandle;
  inbox?: SourceInbox;
  updatedAt: string;
  entry?: string;
}

/**
 * A {@link RunHost} in this process's memory: each run is `run()` of one of `workflows`
 * with a memory journal (`memoryJournalStore`), answered through an approval source of the
 * host's own (`source: 'host'`), listed and read from its live trace; `cancel` aborts it and
 * `resume` takes an aborted run up again from its journal. Nothing outlives the process.
 * The third host of the contract suite, it runs the entry points' host tests without a
 * folder or a database.
 *
 * @example
 * ```ts
 * const host = memoryRunHost({ workflows: { release: Release } });
 * const runId = await host.start({ workflow: 'release', script });
 * ```
 */
export function memoryRunHost(options: MemoryRunHostOptions): RunHost {
  const runs = new Map<string, MemoryRun>();
  const journal = memoryJournalStore();
  const listeners = new HostListeners();
  const found = (runId: string): MemoryRun => {
    const known = runs.get(runId);
    if (!known) throw runMissing(runId);
    return known;
  };
  const entryOf = (known: MemoryRun): RunSummary =>
    summarizeTrace(known.handle.trace(), known.request.runId, known.updatedAt);
  const changed = (known: MemoryRun) => {
    known.updatedAt = new Date().toISOString();
    const entry = entryOf(known);
    const text = JSON.stringify(entry);
    if (text === known.entry) return;
    known.entry = text;
    listeners.send({ type: 'run', run: entry });
  };
  const launch = (request: MemoryRun['request'], resume: boolean): MemoryRun => {
    const workflow = options.workflows[request.workflow]!;
    const known: MemoryRun = { request, updatedAt: new Date().toISOString() } as MemoryRun;
    known.handle = run(createElement(workflow, request.props ?? {}), {
      workflow: request.workflow,
      journal,
      ...(resume ? { resume: request.runId } : { runId: request.runId }),
      ...(request.script ? { model: scriptedModel(request.script) } : {}),
      approvalSources: [{ name: 'host', connect: (inbox) => void (known.inbox = inbox) }],
    });
    known.handle.result.catch(() => {});
    runs.set(request.runId, known);
    void (async () => {
      for await (const event of known.handle.events) if (!isDelta(event)) changed(known);
      changed(known);
    })();
    return known;
  };
  return {
    label: 'memory',
    async start(request) {
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
      changed(launch({ ...request, runId }, false));
      return runId;
    },
    list: async () =>
      [...runs.values()]
        .map(entryOf)
        .sort((a, b) => b.startedAt.localeCompare(a.startedAt) || a.runId.localeCompare(b.runId)),
    async readTrace(runId) {
      const known = runs.get(runId);
      return known ? { text: JSON.stringify(known.handle.trace()) } : { missing: true };
    },
    subscribe: (onChange) => listeners.add(onChange),
    async *events(runId, follow = {}) {
      yield* untilAborted(found(runId).handle.events, follow.signal);
    },
    async decisions(runId) {
      const waiting = approvalsInTrace(found(runId).handle.trace()).filter(
        (approval) => approval.status === 'pending',
      );
      return { runId, state: waiting.length > 0 ? 'live' : 'none', resumable: false, waiting };
    },
    async answer(runId, answer) {
      const known = found(runId);
      checkAnswerShape(runId, answer);
      const by = answer.answeredBy ?? localUser();
      const result = given(runId, () =>
        known.inbox!.answer(answer.key, {
          approved: answer.approved,
          ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
          ...editOf(answer),
          ...(by !== undefined ? { answeredBy: by } : {}),
        }),
      );
      if (result.status === 'applied') return { delivered: 'live' };
      throw answerRefused({
        status: result.status,
        message: `june: run "${runId}" waits for no approval of the call "${answer.key}" (${result.status === 'answered' ? 'it was answered already, and an answer counts once' : result.status === 'withdrawn' ? 'withdrawn' : 'never asked'}); reload the run to see what it waits for.`,
      });
    },
    async cancel(runId) {
      found(runId).handle.abort('cancelled through its run host');
    },
    async result(runId) {
      const { handle } = found(runId);
      await handle.result.catch(() => {});
      return handle.trace();
    },
    async resume(runId) {
      const known = found(runId);
      if (runState(known.handle.trace()) !== 'aborted')
        throw new SystemError(
          'run-host-unsupported',
          `june: run "${runId}" is ${runState(known.handle.trace())}; only an aborted run is resumed.`,
        );
      changed(launch(known.request, true));
    },
    async close() {
      for (const known of runs.values()) known.handle.abort('its run host closed');
      await Promise.all([...runs.values()].map((known) => known.handle.result.catch(() => {})));
    },
  };
}

/**
 * The inbox's result of an answer; an answer the tool's schemas refuse (an edit that does not
 * fit) is a 400 `studio-request-invalid` with the inbox's message.
 */
function given<T>(runId: string, answer: () => T): T {
  try {
    return answer();
  } catch (error) {
    if (!JuneError.isInstance(error)) throw error;
    throw new StudioRequestError(
      'studio-request-invalid',
      error.message.replace(/^june: /, `june: run "${runId}": `),
      400,
    );
  }
}
