// The ratio of one contender's time to another's on one workload, measured in alternating
// blocks in one process (so load from other processes hits both alike): the check for
// June's target over the floor (at most 1.10 on (a) and (b)).
//   node --import tsx bench/ratio.ts [base=ai-sdk] [other=june] [oneStep|steps|composite] [runs per block=50] [blocks=10]
import type { WorkloadRunners } from './contender.js';
import { contenders } from './contenders/index.js';
import { fullGc, median } from './measure.js';

const [
  baseId = 'ai-sdk',
  otherId = 'june',
  workload = 'oneStep',
  runsArg = '50',
  blocksArg = '10',
] = process.argv.slice(2);
const runs = Number(runsArg);
const load = async (id: string) => {
  const contender = contenders.find((c) => c.id === id);
  if (!contender) throw new Error(`bench: no contender "${id}"`);
  const fn = (await contender.load())[workload as keyof WorkloadRunners];
  for (let i = 0; i < 30; i++) await fn();
  return fn;
};
const fns = [await load(baseId), await load(otherId)];
const block = async (fn: () => Promise<string>) => {
  fullGc();
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  const cpu = process.cpuUsage(cpu0);
  return { wall: (performance.now() - start) / runs, cpu: (cpu.user + cpu.system) / 1000 / runs };
};
const wall: number[] = [];
const cpu: number[] = [];
const abs: Array<[number, number]> = [];
for (let b = 0; b < Number(blocksArg); b++) {
  const order = b % 2 ? [1, 0] : [0, 1];
  const out: Array<{ wall: number; cpu: number }> = [];
  for (const i of order) out[i] = await block(fns[i]!);
  wall.push(out[1]!.wall / out[0]!.wall);
  cpu.push(out[1]!.cpu / out[0]!.cpu);
  abs.push([out[0]!.wall, out[1]!.wall]);
}
console.log(
  `${otherId} / ${baseId} on ${workload}: wall ${median(wall).toFixed(3)} (blocks: ${wall.map((r) => r.toFixed(2)).join(' ')}), cpu ${median(cpu).toFixed(3)}; ms/run wall ${median(abs.map((a) => a[0])).toFixed(3)} vs ${median(abs.map((a) => a[1])).toFixed(3)}`,
);
