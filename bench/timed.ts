// Workloads (a), (b), (c), (f) for one contender, in a child process of its own:
//   node --import tsx bench/timed.ts <contender-id> <workloads a,b,c,f> <timeMs> <warmupMs> <minSamples>
// Prints one JSON line last: { timings: { a: Timing, ... } } or { error }.
//
// One process per contender and pass, so no contender is timed with another's process state
// (compiled code, heap): before Node 24, an AsyncLocalStorage that any framework has used also
// turns on async hooks for the whole process, and every promise after that costs more, the
// floor's included.
import type { WorkloadRunners } from './contender.js';
import { contenders } from './contenders/index.js';
import { time, type Timing } from './measure.js';
import { verify } from './verify.js';

/** What the child prints. */
export type TimedResult = { timings: Record<string, Timing> } | { error: string };

const KEYS: Record<string, keyof WorkloadRunners> = {
  a: 'oneStep',
  b: 'steps',
  c: 'composite',
  f: 'toolSteps',
};

const [id, workloadsArg = 'a,b,c,f', timeMs = '200', warmupMs = '60', minSamples = '3'] =
  process.argv.slice(2);
const contender = contenders.find((c) => c.id === id);
let result: TimedResult;
try {
  if (!contender) throw new Error(`bench: no contender "${id}"`);
  const runners = await contender.load();
  await verify(contender, runners);
  const timings: Record<string, Timing> = {};
  const settings = {
    timeMs: Number(timeMs),
    warmupMs: Number(warmupMs),
    minSamples: Number(minSamples),
  };
  for (const workload of workloadsArg.split(',')) {
    timings[workload] = await time(`${workload} ${id}`, runners[KEYS[workload]!], settings);
  }
  result = { timings };
} catch (error) {
  let reason =
    error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
  if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && contender)
    reason += ` (install the dev dependencies: npm i -D ${contender.packages.filter((p) => p !== 'ai').join(' ')})`;
  result = { error: reason };
}
console.log(JSON.stringify(result));
