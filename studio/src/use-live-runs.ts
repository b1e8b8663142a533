import { useEffect, useState } from 'preact/hooks';
import type { RunListEntry } from '../../src/host/run-list.js';
import { fetchRuns, listenToRuns } from './api.js';

/** The run list and the live channel's state, kept current from `api/events`. */
export interface LiveRuns {
  /** Runs by id; `undefined` until the first list arrived. */
  runs: Map<string, RunListEntry> | undefined;
  dir: string;
  /** Whether this Studio serves the project's workflows (`june dev`); undefined until the list arrived. */
  workflows: boolean | undefined;
  /** Whether this Studio forks runs, and takes a model choice for them; undefined when it does not (plain `june studio`). */
  forks: { modelChoice: boolean } | undefined;
  /** False while the live channel is down (the page reconnects by itself). */
  live: boolean;
  error: string | undefined;
}

/** Loads the run list and follows the live channel: runs that appear, change or go away. */
export function useLiveRuns(): LiveRuns {
  const [state, setState] = useState<LiveRuns>({
    runs: undefined,
    dir: '',
    workflows: undefined,
    forks: undefined,
    live: false,
    error: undefined,
  });
  useEffect(() => {
    let stopped = false;
    let generation = 0;
    const reload = async () => {
      const mine = ++generation;
      try {
        const list = await fetchRuns();
        if (stopped || mine !== generation) return;
        setState((prev) => {
          // An event that arrived while the list was on its way may be newer than the list.
          const runs = new Map(list.runs.map((run) => [run.runId, run]));
          for (const [runId, run] of prev.runs ?? []) {
            const listed = runs.get(runId);
            if (listed && Date.parse(run.updatedAt) > Date.parse(listed.updatedAt))
              runs.set(runId, run);
          }
          return {
            ...prev,
            dir: list.dir,
            workflows: list.workflows,
            forks: list.forks,
            error: undefined,
            runs,
          };
        });
      } catch (error) {
        if (!stopped) setState((prev) => ({ ...prev, error: (error as Error).message }));
      }
    };
    const stop = listenToRuns({
      onOpen: () => {
        setState((prev) => ({ ...prev, live: true }));
        void reload();
      },
      onDown: () => setState((prev) => ({ ...prev, live: false })),
      onEvent: (event) =>
        setState((prev) => {
          const runs = new Map(prev.runs ?? []);
          if (event.type === 'run') runs.set(event.run.runId, event.run);
          else runs.delete(event.runId);
          return { ...prev, runs };
        }),
    });
    return () => {
      stopped = true;
      stop();
    };
  }, []);
  return state;
}
