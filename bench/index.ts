// June's cost over the bare AI SDK and over its peers, in one run:
//   npm run bench                 (about 3 minutes on 2 cores)
//   npm run bench -- --quick      (a smoke run: fewer samples, 100 concurrent runs)
//   npm run bench -- --only=a,b --contenders=ai-sdk,june --no-write
// Workloads (a)-(d) run on every contender that loads here; (e) is bench/resolution.ts.
// Every model is the same MockLanguageModelV3 answering at once (bench/mock-model.ts), so the
// times are the frameworks' own cost. Writes bench/results.md unless --no-write.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ConcurrentResult } from './concurrent.js';
import type { Contender, WorkloadRunners } from './contender.js';
import { contenders as allContenders } from './contenders/index.js';
import { machineInfo, packageVersion } from './machine.js';
import { time, median, type Timing } from './measure.js';
import { modelStats } from './mock-model.js';
import { renderResults, type Results, type SeriesKind, type WorkloadId } from './report.js';
import type { SeriesPoint } from './series.js';
import {
  COMPOSITE_CALLS,
  CONCURRENT_RUNS,
  lookupExecutions,
  STEPS,
  TOOL_CALLS,
} from './workloads.js';
import os from 'node:os';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string) =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = flag('quick');
const only = new Set((option('only') ?? 'a,b,c,d,e,f,series').split(','));
const picked = option('contenders')?.split(',');
const settings = {
  /** Passes over the contenders per workload (their order rotates); the median of the passes' medians is reported. */
  passes: quick ? 1 : 4,
  timeMs: quick ? 30 : 200,
  warmupMs: quick ? 10 : 60,
  minSamples: 3,
  concurrentRuns: quick ? 20 : CONCURRENT_RUNS,
  concurrentRounds: Number(option('rounds') ?? 1),
};

const benchStart = performance.now();
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const machine = machineInfo();
const log = (line: string) => process.stderr.write(`${line}\n`);

const contenders = allContenders.filter((c) => !picked || picked.includes(c.id));
const loaded = new Map<string, WorkloadRunners>();
const unavailable = new Map<string, string>();

/** Runs each workload once and checks the answer and the model calls, so a broken wiring never gets timed. */
async function verify(contender: Contender, runners: WorkloadRunners): Promise<void> {
  const check = async (
    workload: keyof WorkloadRunners,
    expect: Record<string, { calls: number; minPrompt?: number }>,
    lookups: number,
  ) => {
    for (const key of Object.keys(modelStats)) delete modelStats[key];
    const before = lookupExecutions();
    const answer = await runners[workload]();
    const problems: string[] = [];
    if (answer !== 'done') problems.push(`answered ${JSON.stringify(answer)}, not "done"`);
    if (lookupExecutions() - before !== lookups)
      problems.push(`ran lookup ${lookupExecutions() - before} times, not ${lookups}`);
    for (const [role, want] of Object.entries(expect)) {
      const got = modelStats[role];
      if (got?.calls !== want.calls)
        problems.push(`made ${got?.calls ?? 0} "${role}" model calls, not ${want.calls}`);
      if (want.minPrompt !== undefined && (got?.lastPromptMessages ?? 0) < want.minPrompt)
        problems.push(
          `sent a last "${role}" prompt of ${got?.lastPromptMessages} messages (the conversation was not carried)`,
        );
    }
    if (problems.length)
      throw new Error(`${contender.label}, workload ${workload}: ${problems.join('; ')}`);
  };
  await check('oneStep', { a: { calls: TOOL_CALLS + 1 } }, TOOL_CALLS);
  await check('steps', { b: { calls: STEPS, minPrompt: 2 * STEPS - 1 } }, 0);
  await check(
    'composite',
    { 'c-outer': { calls: COMPOSITE_CALLS + 1 }, 'c-inner': { calls: COMPOSITE_CALLS } },
    0,
  );
  await check('toolSteps', { f: { calls: 2 * STEPS, minPrompt: 2 * STEPS } }, STEPS);
}

for (const contender of contenders) {
  try {
    const runners = await contender.load();
    await verify(contender, runners);
    loaded.set(contender.id, runners);
    log(`loaded ${contender.label}`);
  } catch (error) {
    let reason =
      error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND')
      reason += ` (install the dev dependencies: npm i -D ${contender.packages.filter((p) => p !== 'ai').join(' ')})`;
    unavailable.set(contender.id, reason);
    log(`cannot run ${contender.label}: ${reason}`);
  }
}

const timings: Results['timings'] = {};
const workloads: Array<[WorkloadId, keyof WorkloadRunners]> = [
  ['a', 'oneStep'],
  ['b', 'steps'],
  ['c', 'composite'],
  ['f', 'toolSteps'],
];
for (const [workload, key] of workloads) {
  if (!only.has(workload)) continue;
  const ids = contenders.map((c) => c.id).filter((id) => loaded.has(id));
  const passes = new Map<string, Timing[]>(ids.map((id) => [id, []]));
  for (let pass = 0; pass < settings.passes; pass++) {
    const order = ids.map((_, i) => ids[(i + pass) % ids.length]!);
    for (const id of order) {
      passes.get(id)!.push(await time(`${workload} ${id}`, loaded.get(id)![key], settings));
    }
  }
  for (const [id, list] of passes) {
    timings[`${workload}:${id}`] = {
      medianMs: median(list.map((t) => t.medianMs)),
      madMs: median(list.map((t) => t.madMs)),
      samples: list.reduce((n, t) => n + t.samples, 0),
      cpuMs: median(list.map((t) => t.cpuMs)),
    };
    log(
      `(${workload}) ${id}: ${timings[`${workload}:${id}`]!.medianMs.toFixed(3)} ms median, ${timings[`${workload}:${id}`]!.cpuMs.toFixed(3)} ms cpu`,
    );
  }
}

/** Runs a bench script in a child node with this process's loaders (tsx) and the given flags. */
function child(
  script: string,
  scriptArgs: string[],
  extraFlags: string[],
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(
      process.execPath,
      [...extraFlags, ...process.execArgv, here(script), ...scriptArgs],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const concurrent: Results['concurrent'] = {};
if (only.has('d')) {
  for (const contender of contenders) {
    if (!loaded.has(contender.id)) continue;
    const out = await child(
      './concurrent.ts',
      [contender.id, String(settings.concurrentRuns), String(settings.concurrentRounds)],
      ['--expose-gc'],
      300_000,
    );
    const last = out.stdout.trim().split('\n').pop() ?? '';
    try {
      const result = JSON.parse(last) as ConcurrentResult;
      concurrent[contender.id] = result;
      log(
        `(d) ${contender.id}: ${result.medianMs.toFixed(0)} ms, ${result.liveHeapPerRun} B live heap/run`,
      );
    } catch {
      const error = `exit ${out.code}: ${(out.stderr.trim().split('\n').pop() ?? '').slice(0, 300)}`;
      concurrent[contender.id] = { error };
      log(`(d) ${contender.id} failed: ${error}`);
    }
  }
}

/** The growth series (bench/series.tsx), one child process per point. */
const series: NonNullable<Results['series']> = [];
if (only.has('series')) {
  const plan: Array<[SeriesKind, string[], number[]]> = quick
    ? [
        ['long', ['june', 'june-batch'], [5, 20]],
        ['text', ['june'], [0.05, 0.2]],
        ['journal', ['june'], [5, 20]],
      ]
    : [
        ['long', ['ai-sdk', 'june', 'june-batch'], [100, 500, 1500]],
        ['text', ['ai-sdk', 'june', 'june-batch'], [0.5, 2, 5]],
        ['journal', ['june'], [25, 100, 200]],
      ];
  for (const [kind, who, sizes] of plan) {
    for (const id of who) {
      for (const size of sizes) {
        const out = await child('./series.tsx', [kind, id, String(size)], ['--expose-gc'], 600_000);
        try {
          const point = JSON.parse(out.stdout.trim().split('\n').pop() ?? '') as SeriesPoint;
          series.push({ kind, contender: id, size, point });
          log(
            `(${kind}) ${id} ${size}: ${point.cpuMs.toFixed(0)} ms cpu, ${(point.peakRss / 2 ** 20).toFixed(0)} MB peak RSS`,
          );
        } catch {
          series.push({
            kind,
            contender: id,
            size,
            error: `exit ${out.code}: ${(out.stderr.trim().split('\n').pop() ?? '').slice(0, 300)}`,
          });
          log(`(${kind}) ${id} ${size} failed`);
        }
      }
    }
  }
}

let resolution: Results['resolution'];
if (only.has('e')) {
  const out = await child('./resolution.ts', [], [], 120_000);
  // It exits 1 when its own linearity check fails; that verdict is in its output.
  const ran = out.stdout.includes('resolve');
  resolution = {
    output: out.stdout.trim(),
    exitCode: out.code,
    ...(!ran ? { error: `exit ${out.code}: ${out.stderr.trim().split('\n').pop() ?? ''}` } : {}),
  };
  log(`(e) resolution: exit ${out.code}${resolution.error ? `, ${resolution.error}` : ''}`);
}

machine.loadAverage.end = Math.round(os.loadavg()[0]! * 100) / 100;
const versions: Record<string, string> = {};
for (const name of [
  'june',
  'ai',
  '@ai-sdk/provider',
  'zod',
  'tinybench',
  ...new Set(allContenders.flatMap((c) => c.packages)),
]) {
  versions[name] = packageVersion(name) ?? 'not installed';
}
const results: Results = {
  machine,
  versions,
  settings,
  contenders,
  unavailable,
  timings,
  concurrent,
  series,
  resolution,
  date: new Date().toISOString(),
  durationS: (performance.now() - benchStart) / 1000,
};
const markdown = renderResults(results);
process.stdout.write(`${markdown}\n`);
if (!flag('no-write')) {
  writeFileSync(here('./results.md'), `${markdown}\n`);
  log('wrote bench/results.md');
}
