// CPU profiles of contenders on one workload, steady state only (after warm-up), taken in
// alternating blocks in one process so that load from other processes hits each alike.
// Writes one .cpuprofile per contender (open it in Chrome DevTools: same format as
// `node --cpu-prof`) and prints self time per function per run; with two contenders, what the
// second spends over the first, function by function.
// Under load from other processes, the time between samples includes time the thread was not
// running; so each function gets the process's CPU time (process.cpuUsage) in proportion to
// its share of the samples, not the sampled wall time.
//   node --import tsx bench/profile.ts <a,b,...> <oneStep|steps|composite> [runs per block] [blocks] [out-dir]  (out-dir: the OS temp dir by default)
//   e.g. node --import tsx bench/profile.ts ai-sdk,june oneStep 100 6
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkloadRunners } from './contender.js';
import { contenders } from './contenders/index.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [
  ids = 'ai-sdk,june',
  workload = 'oneStep',
  runsArg = '100',
  blocksArg = '6',
  outDir = join(tmpdir(), 'june-bench-profiles'),
] = process.argv.slice(2);
const runs = Number(runsArg);
const blocks = Number(blocksArg);
const picked = ids.split(',').map((id) => {
  const contender = contenders.find((c) => c.id === id);
  if (!contender) throw new Error(`bench: no contender "${id}"`);
  return contender;
});
const fns = new Map<string, () => Promise<string>>();
for (const contender of picked) {
  const runners = await contender.load();
  const fn = runners[workload as keyof WorkloadRunners];
  if (!fn) throw new Error(`bench: no workload "${workload}" (oneStep, steps, composite)`);
  for (let i = 0; i < 30; i++) await fn();
  fns.set(contender.id, fn);
}

const where = (url: string) =>
  url
    .replace(/^file:\/\/.*?\/node_modules\//, '')
    .replace(/^file:\/\/.*?\/(src|bench|jsx-runtime)\//, '$1/');
const label = (node: ProfileNode) =>
  `${where(node.callFrame.url) || '(native)'}:${node.callFrame.functionName || '(anonymous)'}${node.callFrame.url ? `:${node.callFrame.lineNumber + 1}` : ''}`;

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });

/** selfUs / totalUs: sample counts per function and in all (converted to CPU time when printed). */
const totals = new Map<
  string,
  { selfUs: Map<string, number>; totalUs: number; wallMs: number; cpuMs: number; runs: number }
>();
for (const id of fns.keys())
  totals.set(id, { selfUs: new Map(), totalUs: 0, wallMs: 0, cpuMs: 0, runs: 0 });
const lastProfile = new Map<string, Profile>();

for (let block = 0; block < blocks; block++) {
  for (const [id, fn] of fns) {
    const t = totals.get(id)!;
    await session.post('Profiler.start');
    const started = performance.now();
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < runs; i++) await fn();
    const cpu = process.cpuUsage(cpu0);
    t.wallMs += performance.now() - started;
    t.cpuMs += (cpu.user + cpu.system) / 1000;
    t.runs += runs;
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    lastProfile.set(id, profile);
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((sample) => {
      const key = label(byId.get(sample)!);
      // idle time, and the inspector serializing the profile when it stops (not the workload)
      if (key === '(native):(idle)' || key === '(native):dispatch') return;
      t.selfUs.set(key, (t.selfUs.get(key) ?? 0) + 1);
      t.totalUs += 1;
    });
  }
}
session.disconnect();

mkdirSync(outDir, { recursive: true });
for (const [id, profile] of lastProfile)
  writeFileSync(join(outDir, `${id}-${workload}.cpuprofile`), JSON.stringify(profile));

/** CPU ms per run for `samples` samples of contender `id`: its CPU time shared out by samples. */
const ms = (id: string, samples: number) => {
  const t = totals.get(id)!;
  return (samples / t.totalUs) * (t.cpuMs / t.runs);
};
const f3 = (v: number) => v.toFixed(3).padStart(8);
for (const [id, t] of totals) {
  console.log(
    `\n${id} ${workload}: ${t.runs} runs, ${(t.wallMs / t.runs).toFixed(3)} ms/run wall, ${(t.cpuMs / t.runs).toFixed(3)} ms/run cpu, ${t.totalUs} samples`,
  );
  console.log('  self cpu ms/run  function (top 20)');
  for (const [l, n] of [...t.selfUs].sort((a, b) => b[1] - a[1]).slice(0, 20))
    console.log(`  ${f3(ms(id, n))}  ${l}`);
}

const ids2 = [...totals.keys()];
if (ids2.length === 2) {
  const [baseId, otherId] = ids2 as [string, string];
  const base = totals.get(baseId)!;
  const other = totals.get(otherId)!;
  const keys = new Set([...base.selfUs.keys(), ...other.selfUs.keys()]);
  const diff = [...keys].map(
    (k) =>
      [k, ms(otherId, other.selfUs.get(k) ?? 0) - ms(baseId, base.selfUs.get(k) ?? 0)] as const,
  );
  const baseCpu = base.cpuMs / base.runs;
  const otherCpu = other.cpuMs / other.runs;
  console.log(
    `\n${otherId} over ${baseId}: ${(otherCpu - baseCpu).toFixed(3)} cpu ms/run (${((100 * otherCpu) / baseCpu - 100).toFixed(1)}%)`,
  );
  const group = (k: string) =>
    k.startsWith('src/') || k.startsWith('jsx-runtime/')
      ? 'june src/'
      : k.startsWith('ai/')
        ? 'ai'
        : k.startsWith('node:internal/webstreams')
          ? 'web streams'
          : k.startsWith('zod/')
            ? 'zod'
            : k.includes('garbage collector')
              ? 'GC'
              : k.includes('runMicrotasks')
                ? 'microtasks'
                : 'other';
  const groups = new Map<string, number>();
  for (const [k, d] of diff) groups.set(group(k), (groups.get(group(k)) ?? 0) + d);
  console.log(
    '  by group (cpu ms/run): ' +
      [...groups]
        .sort((a, b) => b[1] - a[1])
        .map(([g, d]) => `${g} ${d >= 0 ? '+' : ''}${d.toFixed(3)}`)
        .join(', '),
  );
  console.log('  largest differences (cpu ms/run):');
  for (const [k, d] of [...diff]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(process.env.PROFILE_TOP ?? 30)))
    console.log(`  ${d >= 0 ? '+' : ''}${d.toFixed(3).padStart(7)}  ${k}`);
  console.log(`  ${otherId}'s own functions (self cpu ms/run):`);
  const own = [...other.selfUs]
    .filter(([k]) => k.startsWith('src/') || k.startsWith('jsx-runtime/'))
    .sort((a, b) => b[1] - a[1]);
  for (const [k, n] of own.slice(0, 25)) console.log(`  ${f3(ms(otherId, n))}  ${k}`);
  console.log(
    `  in all: ${own.reduce((sum, [, n]) => sum + ms(otherId, n), 0).toFixed(3)} cpu ms/run`,
  );
}
