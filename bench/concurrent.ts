// Workload (d), run in a child process per contender so each starts from a clean heap:
//   node --expose-gc --import tsx bench/concurrent.ts <contender-id> <runs> <timed-rounds>
// Prints one JSON line (ConcurrentResult) last.
//
// Memory: after a short warm-up, a forced GC and a baseline `process.memoryUsage()`, `runs`
// copies of workload (a) start at once; each waits inside its third tool call (a gate) until
// all have arrived, so every run is in flight, mid-loop, with its conversation grown. There
// memory is read twice: as is (heap and RSS at the peak, garbage included) and after a forced
// GC (live heap: what the in-flight runs really hold). Deltas over the baseline / runs = bytes
// per concurrent run. Then the gate opens and all runs finish.
// With HEAP_SNAPSHOT=<file>, heap snapshots are written to <file>.base before the runs start
// and to <file> at the gate, after the forced GC (read them with bench/heap-summary.ts).
// Time: the wall time of that batch, from start to the last run's end, less the pause at the
// gate; with `timed-rounds` > 1, more batches run ungated and the median is reported.
import { writeHeapSnapshot } from 'node:v8';
import { contenders } from './contenders/index.js';
import { exposeGc, median } from './measure.js';
import { Gate, lookupExecutions, setGate, TOOL_CALLS } from './workloads.js';

/** What the child reports. */
export interface ConcurrentResult {
  runs: number;
  /** Median wall time of `runs` concurrent runs, ms. */
  medianMs: number;
  roundsMs: number[];
  /** Live heap per in-flight run (after GC), bytes. */
  liveHeapPerRun: number;
  /** Heap per in-flight run before GC (garbage included), bytes. */
  peakHeapPerRun: number;
  /** RSS growth per in-flight run, bytes. */
  rssPerRun: number;
}

const [id, runsArg = '1000', roundsArg = '1'] = process.argv.slice(2);
const runs = Number(runsArg);
const rounds = Number(roundsArg);
const contender = contenders.find((c) => c.id === id);
if (!contender) throw new Error(`bench: no contender "${id}"`);
const gc = exposeGc();
const collect = () => {
  gc();
  gc();
};

const runners = await contender.load();
const batch = async (count: number) => {
  const before = lookupExecutions();
  const outputs = await Promise.all(Array.from({ length: count }, () => runners.oneStep()));
  if (outputs.some((o) => o !== 'done') || lookupExecutions() - before !== count * TOOL_CALLS)
    throw new Error(`bench: ${id} did not complete ${count} runs of workload (a)`);
};
for (let i = 0; i < 20; i++) await batch(10); // warm-up: load code, JIT

collect();
if (process.env.HEAP_SNAPSHOT) writeHeapSnapshot(`${process.env.HEAP_SNAPSHOT}.base`);
collect();
const base = process.memoryUsage();
const gate = new Gate(runs);
setGate(gate);
const started = performance.now();
const all = Promise.all(Array.from({ length: runs }, () => runners.oneStep()));
await gate.allArrived();
const pauseStart = performance.now();
const peak = process.memoryUsage();
collect();
const live = process.memoryUsage();
if (process.env.HEAP_SNAPSHOT) writeHeapSnapshot(process.env.HEAP_SNAPSHOT);
const pausedMs = performance.now() - pauseStart;
gate.release();
const outputs = await all;
const gatedMs = performance.now() - started - pausedMs;
setGate(undefined);
if (outputs.some((o) => o !== 'done'))
  throw new Error(`bench: ${id} did not complete ${runs} gated runs`);

// The gated batch is timed too (its GC pause taken out); extra rounds run ungated.
const roundsMs: number[] = [gatedMs];
for (let i = 1; i < rounds; i++) {
  collect();
  const start = performance.now();
  await batch(runs);
  roundsMs.push(performance.now() - start);
}

const result: ConcurrentResult = {
  runs,
  medianMs: median(roundsMs),
  roundsMs,
  liveHeapPerRun: Math.round((live.heapUsed - base.heapUsed) / runs),
  peakHeapPerRun: Math.round((peak.heapUsed - base.heapUsed) / runs),
  rssPerRun: Math.round((peak.rss - base.rss) / runs),
};
console.log(JSON.stringify(result));
