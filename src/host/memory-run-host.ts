import type { Component } from '../elements/element.js';
import { HostListeners } from './host-listeners.js';
import { MemoryRuns } from './memory-runs.js';
import type { RunHost } from './run-host.js';

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
      const runId = runs.checkedStart(request);
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
    events: (runId, follow) => runs.events(runId, follow?.signal),
    decisions: async (runId) => runs.decisions(runId),
    answer: async (runId, answer) => runs.answer(runId, answer),
    cancel: async (runId) => runs.cancel(runId),
    result: (runId) => runs.result(runId),
    async resume(runId) {
      await runs.resume(runId);
    },
    close: () => runs.close(),
  };
}
