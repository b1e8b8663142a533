// What OpenTelemetry export costs a run. June's workloads (a), (b), (c) three ways, in
// alternating blocks in one process (so load from other processes hits all alike):
// - baseline: the interpreter's runWorkflow(), which has no telemetry code path at all;
// - run() with no tracer provider registered (what every run without OpenTelemetry pays:
//   one global lookup, no consumer attached);
// - run() with a registered provider whose in-memory exporter keeps every span (live export).
// Also the lookup itself, per run.
//   node --import tsx bench/telemetry.ts [--quick]
// `npm run bench` adds runTelemetrySection()'s markdown to bench/results.md.
import { pathToFileURL } from 'node:url';
import { trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import * as june from 'june';
import { jsx } from 'june/jsx-runtime';
import type { WorkloadRunners } from './contender.js';
import { juneRunners } from './contenders/june.js';
import { fullGc, median } from './measure.js';

const WORKLOADS: Array<[string, keyof WorkloadRunners]> = [
  ['(a) one step, 5 tool calls', 'oneStep'],
  ['(b) 20 steps', 'steps'],
  ['(c) composite tool x10', 'composite'],
];
const MODES = ['baseline', 'no provider', 'in-memory exporter'] as const;
type Mode = (typeof MODES)[number];

/** ms per run, wall and CPU, over one block of `runs` runs. */
interface BlockTime {
  wall: number;
  cpu: number;
}

/** One workload's measure: per mode, each block's time; the spans one run exports. */
interface WorkloadResult {
  name: string;
  blocks: Record<Mode, BlockTime[]>;
  spansPerRun: number;
}

/**
 * June's own copy, as the bench imports it (`dist/` under `npm run bench`, the TypeScript
 * source when run alone): its `runWorkflow` and `runTracer` come from the same copy as the
 * `run()` the runners call, so the modes differ in nothing but the telemetry code path.
 */
async function juneInternals() {
  const entry = import.meta.resolve('june');
  const sibling = (path: string) => import(new URL(path, entry).href);
  const interpreter = (await sibling('./interpreter/run.js')) as { runWorkflow: unknown };
  const tracer = (await sibling('./telemetry/run-tracer.js')) as {
    runTracer: (option: undefined) => unknown;
  };
  return { runWorkflow: interpreter.runWorkflow as typeof june.run, runTracer: tracer.runTracer };
}

async function timeBlock(fn: () => Promise<string>, runs: number): Promise<BlockTime> {
  fullGc();
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  const cpu = process.cpuUsage(cpu0);
  return { wall: (performance.now() - start) / runs, cpu: (cpu.user + cpu.system) / 1000 / runs };
}

/** Times every workload in `blocks` blocks of `runs` runs per mode, the modes' order turning each block. */
async function measure(runs: number, blocks: number): Promise<WorkloadResult[]> {
  const { runWorkflow } = await juneInternals();
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  type Build = NonNullable<NonNullable<Parameters<typeof juneRunners>[0]>['june']>;
  const interpreterOnly = { ...june, jsx, run: runWorkflow } as unknown as Build;
  const runners = { plain: juneRunners({ june: interpreterOnly }), run: juneRunners() };
  const setUp = (mode: Mode) => {
    trace.disable();
    exporter.reset();
    if (mode === 'in-memory exporter') trace.setGlobalTracerProvider(provider);
    return mode === 'baseline' ? runners.plain : runners.run;
  };
  const results: WorkloadResult[] = [];
  for (const [name, key] of WORKLOADS) {
    for (const mode of MODES) for (let i = 0; i < 15; i++) await setUp(mode)[key]();
    const result: WorkloadResult = {
      name,
      blocks: { baseline: [], 'no provider': [], 'in-memory exporter': [] },
      spansPerRun: 0,
    };
    for (let b = 0; b < blocks; b++) {
      const order = [...MODES];
      for (let turn = 0; turn < b % MODES.length; turn++) order.push(order.shift()!);
      for (const mode of order) {
        result.blocks[mode].push(await timeBlock(setUp(mode)[key], runs));
        if (mode === 'in-memory exporter')
          result.spansPerRun = exporter.getFinishedSpans().length / runs;
      }
    }
    trace.disable();
    results.push(result);
  }
  await provider.shutdown();
  return results;
}

/** The median over blocks of a mode's time over the baseline's in the same block. */
function ratio(result: WorkloadResult, mode: Mode, of: keyof BlockTime): number {
  const base = result.blocks.baseline;
  return median(result.blocks[mode].map((time, i) => time[of] / base[i]![of]));
}

/** Nanoseconds per call of the lookup a run makes when no provider is registered. */
async function lookupNs(): Promise<number> {
  const { runTracer } = await juneInternals();
  trace.disable();
  const calls = 1_000_000;
  const start = performance.now();
  for (let i = 0; i < calls; i++) runTracer(undefined);
  return ((performance.now() - start) * 1e6) / calls;
}

/**
 * The bench's section of bench/results.md: per workload, run() with no provider and with an
 * in-memory exporter as ratios over runWorkflow() (wall and CPU), the spans a run exports,
 * and the lookup's cost. `quick`: 5 runs a block, 3 blocks (else 20 and 7).
 */
export async function runTelemetrySection(opts: { quick: boolean }): Promise<string> {
  const runs = opts.quick ? 5 : 20;
  const blocks = opts.quick ? 3 : 7;
  const results = await measure(runs, blocks);
  const x = (value: number) => `x${value.toFixed(3)}`;
  const rows = results.map((result) => {
    const base = median(result.blocks.baseline.map((time) => time.wall));
    return `| ${result.name} | ${base.toFixed(2)} | ${x(ratio(result, 'no provider', 'wall'))} / ${x(ratio(result, 'no provider', 'cpu'))} | ${x(ratio(result, 'in-memory exporter', 'wall'))} / ${x(ratio(result, 'in-memory exporter', 'cpu'))} | ${result.spansPerRun} |`;
  });
  const noise = results.map((result) => spread(result.blocks['no provider'], result));
  return [
    '## OpenTelemetry overhead',
    '',
    '| workload | runWorkflow(), ms/run | run(), no provider (wall / CPU) | run(), in-memory exporter (wall / CPU) | spans/run |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Method: June's workloads with the bench's mock model, ${blocks} blocks of ${runs} runs per mode in one process, the modes' order turning every block; a ratio is the median over blocks of the mode's ms/run over runWorkflow()'s (the interpreter, no telemetry code path) in the same block; the no-provider ratios' spread between blocks (median absolute deviation) is ${noise.map((n) => n.toFixed(3)).join(', ')} for (a), (b), (c); the in-memory exporter is a registered TracerProvider with SimpleSpanProcessor (spans exported live, as each ends); with no provider, run() looks once per run whether one is registered: ${(await lookupNs()).toFixed(0)} ns.`,
  ].join('\n');
}

/** The median absolute deviation of a mode's wall ratios over the baseline, block by block. */
function spread(times: BlockTime[], result: WorkloadResult): number {
  const ratios = times.map((time, i) => time.wall / result.blocks.baseline[i]!.wall);
  const mid = median(ratios);
  return median(ratios.map((r) => Math.abs(r - mid)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await runTelemetrySection({ quick: process.argv.includes('--quick') }));
}
