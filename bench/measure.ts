// Timing and memory helpers. Times are tinybench medians (p50) in milliseconds; a forced GC
// (when available) runs before each task so one contender's garbage is not collected on the
// next one's clock.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Bench } from 'tinybench';

/** `global.gc`, exposed at run time when node was not started with `--expose-gc`. */
export function exposeGc(): () => void {
  if (typeof globalThis.gc === 'function') return globalThis.gc as () => void;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Collects twice (weak refs and finalizers settle between the two). */
export function fullGc(): void {
  const gc = exposeGc();
  gc();
  gc();
}

/** What one timed task gives. */
export interface Timing {
  medianMs: number;
  /** Process CPU time (user + system, all threads, GC included) per timed call, ms: the warm-up's calls are not counted. */
  cpuMs: number;
  /** Median absolute deviation, ms. */
  madMs: number;
  samples: number;
}

/**
 * Times `fn` with tinybench: `warmupMs` of calls first (at least 2), uncounted, then samples
 * for `timeMs` (at least `minSamples`). The CPU time is taken over the samples only, so the
 * compiler's work on code still warming up (its threads count in the process's CPU) weighs
 * in only as far as it lasts past the warm-up: with the default 1 s of warm-up, a long-lived
 * process's steady state, which is what an agent server runs in.
 */
export async function time(
  name: string,
  fn: () => Promise<unknown>,
  { timeMs, warmupMs, minSamples }: { timeMs: number; warmupMs: number; minSamples: number },
): Promise<Timing> {
  const warmupEnd = performance.now() + warmupMs;
  for (let i = 0; i < 2 || performance.now() < warmupEnd; i++) await fn();
  fullGc();
  let calls = 0;
  const bench = new Bench({
    time: timeMs,
    warmup: false,
    iterations: minSamples,
    throws: true,
  });
  bench.add(name, () => (calls++, fn()));
  const cpu0 = process.cpuUsage();
  await bench.run();
  const cpu = process.cpuUsage(cpu0);
  const result = bench.tasks[0]!.result as unknown as {
    latency?: { p50: number; mad: number; samplesCount: number };
    error?: unknown;
  };
  if (!result.latency) throw result.error ?? new Error(`bench: ${name} produced no samples`);
  return {
    medianMs: result.latency.p50,
    cpuMs: (cpu.user + cpu.system) / 1000 / calls,
    madMs: result.latency.mad,
    samples: result.latency.samplesCount,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
