// June's cost over the bare AI SDK and over its peers, in one run:
//   npm run bench                 (about 4 minutes on 2 cores with Node 24)
//   npm run bench -- --quick      (a smoke run: fewer samples, 20 concurrent runs)
//   npm run bench -- --only=a,b --contenders=ai-sdk,june --no-write [--passes=N]
// Workloads (a)-(d) run on every contender that loads here; (e) is bench/resolution.ts.
// Every model is the same MockLanguageModelV4 answering at once (bench/mock-model.ts), so the
// times are the frameworks' own cost. Writes bench/results.md unless --no-write.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConcurrentResult } from './concurrent.js';
import { contenders as allContenders } from './contenders/index.js';
import { machineInfo, packageVersion } from './machine.js';
import { median, type Timing } from './measure.js';
import { renderResults, type Results, type SeriesKind } from './report.js';
import type { SeriesPoint } from './series.js';
import type { TimedResult } from './timed.js';
import { CONCURRENT_RUNS } from './workloads.js';
import os from 'node:os';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string) =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = flag('quick');
const only = new Set(
  (
    option('only') ??
    'a,b,c,d,e,f,series,otel,scale-out,scale-out-throughput,scale-out-step,dev-memory'
  ).split(','),
);
const picked = option('contenders')?.split(',');
const settings = {
  /**
   * Passes over the contenders per workload (their order rotates); the median of the passes'
   * medians is reported, and each ratio between two contenders is the median of their ratios
   * pass by pass (both timed in the same minutes).
   */
  passes: Number(option('passes') ?? (quick ? 1 : 6)),
  /** ms of samples per contender, workload and pass; their CPU time is what the tables give. */
  timeMs: Number(option('time') ?? (quick ? 30 : 600)),
  /** ms of uncounted calls before the samples (measure.ts): long enough for the JIT to settle. */
  warmupMs: Number(option('warmup') ?? (quick ? 10 : 600)),
  minSamples: 3,
  concurrentRuns: quick ? 20 : CONCURRENT_RUNS,
  concurrentRounds: Number(option('rounds') ?? 1),
};

const benchStart = performance.now();
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const machine = machineInfo();
const log = (line: string) => process.stderr.write(`${line}\n`);

const contenders = allContenders.filter((c) => !picked || picked.includes(c.id));
const unavailable = new Map<string, string>();

const timings: Results['timings'] = {};
const timedWorkloads = (['a', 'b', 'c', 'f'] as const).filter((w) => only.has(w));
if (timedWorkloads.length) {
  // One child process per contender and pass (bench/timed.ts); the order rotates each pass.
  const ids = contenders.map((c) => c.id);
  const passes = new Map<string, Array<Record<string, Timing>>>(ids.map((id) => [id, []]));
  for (let pass = 0; pass < settings.passes; pass++) {
    for (const id of ids.map((_, i) => ids[(i + pass) % ids.length]!)) {
      if (unavailable.has(id)) continue;
      const out = await child(
        './timed.ts',
        [
          id,
          timedWorkloads.join(','),
          String(settings.timeMs),
          String(settings.warmupMs),
          String(settings.minSamples),
        ],
        ['--expose-gc'],
        600_000,
      );
      const result = lastJsonLine<TimedResult>(out);
      if ('error' in result) {
        unavailable.set(id, result.error);
        log(`cannot run ${id}: ${result.error}`);
      } else {
        passes.get(id)!.push(result.timings);
        if (pass === 0) log(`measured ${id}`);
      }
    }
  }
  for (const [id, list] of passes) {
    if (!list.length) continue;
    for (const workload of timedWorkloads) {
      const runs = list.map((t) => t[workload]!);
      const timing = {
        medianMs: median(runs.map((t) => t.medianMs)),
        madMs: median(runs.map((t) => t.madMs)),
        samples: runs.reduce((n, t) => n + t.samples, 0),
        cpuMs: median(runs.map((t) => t.cpuMs)),
        cpuPassesMs: runs.map((t) => t.cpuMs),
      };
      timings[`${workload}:${id}`] = timing;
      log(
        `(${workload}) ${id}: ${timing.medianMs.toFixed(3)} ms median, ${timing.cpuMs.toFixed(3)} ms cpu`,
      );
    }
  }
}

/** The last stdout line of a child as JSON, or an error naming its exit and last stderr line. */
function lastJsonLine<T>(out: {
  code: number | null;
  stdout: string;
  stderr: string;
}): T | { error: string } {
  try {
    return JSON.parse(out.stdout.trim().split('\n').pop() ?? '') as T;
  } catch {
    return {
      error: `exit ${out.code}: ${(out.stderr.trim().split('\n').pop() ?? '').slice(0, 300)}`,
    };
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
    if (unavailable.has(contender.id)) continue;
    const out = await child(
      './concurrent.ts',
      [contender.id, String(settings.concurrentRuns), String(settings.concurrentRounds)],
      ['--expose-gc'],
      300_000,
    );
    const result = lastJsonLine<ConcurrentResult>(out);
    concurrent[contender.id] = result;
    log(
      'error' in result
        ? `(d) ${contender.id} failed: ${result.error}`
        : `(d) ${contender.id}: ${result.medianMs.toFixed(0)} ms, ${result.liveHeapPerRun} B live heap/run`,
    );
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
        ['long', ['ai-sdk', 'june', 'june-batch'], [100, 1000, 5000]],
        ['text', ['ai-sdk', 'june', 'june-batch'], [0.5, 2, 5]],
        ['journal', ['june'], [25, 100, 400]],
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

/**
 * Sections other benches add to the results (each file runs alone too): OpenTelemetry's
 * overhead, scale-out over Postgres, `june dev`'s memory across saves. A file that is missing or lacks its export is skipped.
 */
const sections: string[] = [];
const extraSections: Array<[string, string, string]> = [
  ['otel', './telemetry.ts', 'runTelemetrySection'],
  ['scale-out', './scale-out.ts', 'runScaleOutSection'],
  ['scale-out-throughput', './scale-out-throughput.ts', 'runScaleOutThroughputSection'],
  ['scale-out-step', './scale-out-step.ts', 'runScaleOutStepSection'],
  ['dev-memory', './dev-memory.ts', 'runDevMemorySection'],
];
for (const [key, file, name] of extraSections) {
  if (!only.has(key)) continue;
  try {
    const module = (await import(file)) as Record<string, unknown>;
    const section = module[name] as ((o: { quick: boolean }) => Promise<string>) | undefined;
    if (typeof section !== 'function') throw new Error(`${file} exports no ${name}()`);
    sections.push(await section({ quick }));
    log(`(${key}) done`);
  } catch (error) {
    sections.push(
      `## ${key}\n\nNot measured: ${error instanceof Error ? error.message : String(error)}`,
    );
    log(`(${key}) failed: ${String(error)}`);
  }
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
  sections,
  ...(process.env.JUNE_BASELINE ? { baseline: baselineCommit(process.env.JUNE_BASELINE) } : {}),
  date: new Date().toISOString(),
  durationS: (performance.now() - benchStart) / 1000,
};
const markdown = renderResults(results);
process.stdout.write(`${markdown}\n`);
if (!flag('no-write')) {
  writeFileSync(here('./results.md'), `${markdown}\n`);
  log('wrote bench/results.md');
}

/**
 * The commit checked out in the baseline build's folder, short, with its subject, and the AI
 * SDK that build runs on (its own node_modules, or this checkout's when baseline.sh linked them).
 */
function baselineCommit(dir: string): string {
  let commit = 'an unknown commit';
  try {
    commit = execFileSync('git', ['-C', dir, 'log', '-1', '--format=%h (%s)'], {
      encoding: 'utf8',
    }).trim();
  } catch {
    // not a git folder
  }
  try {
    const ai = JSON.parse(readFileSync(join(dir, 'node_modules/ai/package.json'), 'utf8')) as {
      version: string;
    };
    return `${commit}, on ai ${ai.version}`;
  } catch {
    return commit;
  }
}
