// A tool source for tests: counts its connects and closes, and can fail, hang until aborted,
// or announce that a connect started.
import { tool, type ToolSet } from 'ai';
import { defineToolSource, JuneError, type RunEvent, type TraceNode } from 'june';
import { z } from 'zod';

export interface SourceProbe {
  connects: number;
  closes: number;
  /** The signal each connect got, in order. */
  signals: AbortSignal[];
  /** Cities the forecast tool was called with. */
  calls: string[];
  /** Resolves when connect number `n` (1-based) has started. */
  started(n?: number): Promise<void>;
}

export interface SourceBehaviour {
  name?: string;
  /** Connects 1..failures reject with this message. */
  failures?: number;
  failWith?: string;
  /** Connect waits for the abort signal and never resolves by itself. */
  hang?: boolean;
  tools?: (probe: SourceProbe) => ToolSet;
}

/** The default tools: `forecast({ city })`. */
export function forecastTools(probe: SourceProbe): ToolSet {
  return {
    forecast: tool({
      description: 'The weather forecast for a city',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        probe.calls.push(city);
        return `Sunny in ${city}`;
      },
    }),
  };
}

/** A `defineToolSource` component, and the probe that watches it. */
export function weatherSource(behaviour: SourceBehaviour = {}) {
  const waiters = new Map<number, () => void>();
  const startedPromises = new Map<number, Promise<void>>();
  const startedFor = (n: number) => {
    let promise = startedPromises.get(n);
    if (!promise) {
      promise = new Promise<void>((resolve) => waiters.set(n, resolve));
      startedPromises.set(n, promise);
    }
    return promise;
  };
  const probe: SourceProbe = {
    connects: 0,
    closes: 0,
    signals: [],
    calls: [],
    started: (n = 1) => startedFor(n),
  };
  const Source = defineToolSource({
    name: behaviour.name ?? 'Weather',
    connect: async ({ signal }) => {
      const n = ++probe.connects;
      probe.signals.push(signal);
      startedFor(n);
      waiters.get(n)!();
      if (behaviour.hang) {
        await new Promise((_resolve, reject) => {
          if (signal.aborted) reject(signal.reason);
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      }
      if (n <= (behaviour.failures ?? 0))
        throw new Error(behaviour.failWith ?? `connection refused (attempt ${n})`);
      return { tools: (behaviour.tools ?? forecastTools)(probe), close: () => void probe.closes++ };
    },
  });
  return { Source, probe };
}

export async function collect(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const all: RunEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

export async function rejectionOf(promise: Promise<unknown>): Promise<JuneError> {
  try {
    await promise;
  } catch (error) {
    if (JuneError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the promise to reject');
}

export function allNodes(node: TraceNode): TraceNode[] {
  return [node, ...node.children.flatMap(allNodes)];
}
