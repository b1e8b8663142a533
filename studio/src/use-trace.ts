import { useEffect, useRef, useState } from 'preact/hooks';
import type { Trace } from '../../src/trace/trace-node.js';
import { fetchTrace } from './api.js';

/** A run's trace as loaded so far; `error` is set when the last load failed. */
export interface TraceState {
  trace: Trace | undefined;
  error: string | undefined;
  loading: boolean;
}

/**
 * Loads a run's trace, and again each time `version` changes (the file's `updatedAt`, from
 * the live channel). One load at a time: changes during a load cause one more load after it.
 * A failed reload keeps the last trace on screen.
 */
export function useTrace(runId: string, version: string | undefined): TraceState {
  const [state, setState] = useState<TraceState>({
    trace: undefined,
    error: undefined,
    loading: true,
  });
  const load = useRef<() => void>(() => {});
  const first = useRef(true);
  useEffect(() => {
    let stopped = false;
    let busy = false;
    let again = false;
    let marked = false;
    load.current = async () => {
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      try {
        do {
          again = false;
          const result = await fetchTrace(runId).catch((error: Error) => ({
            error: error.message,
            status: 0,
          }));
          if (stopped) return;
          if ('trace' in result && !marked) {
            marked = true;
            performance.mark('studio:trace-loaded');
          }
          setState((prev) =>
            'trace' in result
              ? { trace: result.trace, error: undefined, loading: false }
              : { trace: prev.trace, error: result.error, loading: false },
          );
        } while (again && !stopped);
      } finally {
        busy = false;
      }
    };
    void load.current();
    return () => {
      stopped = true;
    };
  }, [runId]);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void load.current();
  }, [version]);
  return state;
}
