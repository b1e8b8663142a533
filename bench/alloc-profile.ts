// Bytes allocated per run of one contender on one workload, by function (V8's sampling heap
// profiler, garbage included): where the GC's work comes from. Steady state only (after 200
// runs of warm-up).
//   TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx bench/alloc-profile.ts <contender> <oneStep|steps|composite|toolSteps> [runs]
//   e.g. ... bench/alloc-profile.ts june-batch oneStep 300   (TOP=60 for more rows)
import { Session } from 'node:inspector/promises';
import type { WorkloadRunners } from './contender.js';
import { contenders } from './contenders/index.js';

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

const [id = 'june-batch', workload = 'oneStep', runsArg = '300'] = process.argv.slice(2);
const contender = contenders.find((c) => c.id === id);
if (!contender) throw new Error(`bench: no contender "${id}"`);
const fn = (await contender.load())[workload as keyof WorkloadRunners];
if (!fn) throw new Error(`bench: no workload "${workload}"`);
for (let i = 0; i < 200; i++) await fn();

const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 256,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
} as never);
const runs = Number(runsArg);
for (let i = 0; i < runs; i++) await fn();
const { profile } = (await session.post('HeapProfiler.stopSampling')) as {
  profile: { head: SamplingNode };
};

const bytesBy = new Map<string, number>();
let total = 0;
const where = (url: string) =>
  url
    .replace(/^file:\/\/.*?\/node_modules\//, '')
    .replace(/^file:\/\/.*?\/(src|bench|dist)\//, '$1/');
const walk = (node: SamplingNode) => {
  const f = node.callFrame;
  const key = `${where(f.url)}:${f.functionName || '(anonymous)'}:${f.lineNumber + 1}`;
  bytesBy.set(key, (bytesBy.get(key) ?? 0) + node.selfSize);
  total += node.selfSize;
  for (const child of node.children) walk(child);
};
walk(profile.head);
console.log(`${id} ${workload}: ${(total / runs / 1024).toFixed(1)} KB allocated per run`);
const top = Number(process.env.TOP ?? 30);
for (const [key, value] of [...bytesBy].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${(value / runs / 1024).toFixed(2).padStart(8)} KB  ${key}`);
