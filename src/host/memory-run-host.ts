import { HostListeners } from './host-listeners.js';
import { MemoryRuns, type MemoryRunsOptions } from './memory-runs.js';
import type { RunHost } from './run-host.js';

/** Options of {@link memoryRunHost}: the workflows it starts, and how it runs them. */
export type MemoryRunHostOptions = Omit<MemoryRunsOptions, 'onChange'>;

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
  const runs = new MemoryRuns({
    ...options,
    onChange: listeners.send,
    listening: () => listeners.listening,
  });
  const known = async <T>(runId: string, then: () => T): Promise<Awaited<T>> => {
    await runs.adopt(runId);
    return await then();
  };
  return {
    label: 'memory',
    start: (request) => runs.start(request),
    list: async () =>
      runs
        .all()
        .map((known) => runs.entryOf(known))
        .sort((a, b) => b.startedAt.localeCompare(a.startedAt) || a.runId.localeCompare(b.runId)),
    readTrace: (runId) =>
      known(runId, () =>
        runs.has(runId)
          ? { text: JSON.stringify(runs.get(runId).handle.trace()) }
          : { missing: true as const },
      ),
    subscribe: (onChange) => listeners.add(onChange),
    async *events(runId, follow) {
      await runs.adopt(runId);
      yield* runs.events(runId, follow?.signal);
    },
    decisions: (runId) => known(runId, () => runs.decisions(runId)),
    answer: (runId, answer) => known(runId, () => runs.answer(runId, answer)),
    cancel: (runId, options) => known(runId, () => runs.cancel(runId, options?.reason)),
    result: (runId) => known(runId, () => runs.result(runId)),
    async resume(runId) {
      await runs.adopt(runId);
      await runs.resume(runId);
    },
    forkPlan: (runId, request) => runs.forkPlan(runId, request),
    async fork(runId, request) {
      const made = await runs.makeFork(runId, request);
      await runs.resumeFromJournal(made.request);
      return made.fork;
    },
    threadRuns: (threadId) => runs.threadRuns(threadId),
    threadMessages: (threadId) => runs.threadMessages(threadId),
    close: () => runs.close(),
  };
}
