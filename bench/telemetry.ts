// What OpenTelemetry export costs a run: June's workloads (a), (b) and (c) with no tracer
// provider registered (what every run without OpenTelemetry pays: one global lookup), and
// with a provider whose in-memory exporter keeps every span; in alternating blocks in one
// process, so load from other processes hits all alike. Also the lookup itself, per run.
//   node --import tsx bench/telemetry.ts [runs per block=40] [blocks=8]
import { trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { WorkloadRunners } from './contender.js';
import { juneRunners } from './contenders/june.js';
import { fullGc, median } from './measure.js';
import { runTracer } from '../src/telemetry/run-tracer.js';

const [runsArg = '40', blocksArg = '8'] = process.argv.slice(2);
const runs = Number(runsArg);
const blocks = Number(blocksArg);
const workloads: Array<keyof WorkloadRunners> = ['oneStep', 'steps', 'composite'];

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const modes = {
  'no provider': () => trace.disable(),
  'in-memory exporter': () => {
    trace.disable();
    trace.setGlobalTracerProvider(provider);
  },
};

/** ms per run (wall and CPU) over one block of `runs` runs. */
async function block(fn: () => Promise<string>) {
  exporter.reset();
  fullGc();
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  const cpu = process.cpuUsage(cpu0);
  return { wall: (performance.now() - start) / runs, cpu: (cpu.user + cpu.system) / 1000 / runs };
}

const runners = juneRunners();
const lines: string[] = [];
for (const workload of workloads) {
  const fn = runners[workload];
  for (const setUp of Object.values(modes)) {
    setUp();
    for (let i = 0; i < 20; i++) await fn();
  }
  const times = new Map<string, { wall: number[]; cpu: number[] }>();
  let spans = 0;
  for (let b = 0; b < blocks; b++) {
    const names = Object.keys(modes) as Array<keyof typeof modes>;
    for (const name of b % 2 ? names.reverse() : names) {
      modes[name]();
      const out = await block(fn);
      if (name === 'in-memory exporter') spans = exporter.getFinishedSpans().length / runs;
      const entry = times.get(name) ?? { wall: [], cpu: [] };
      entry.wall.push(out.wall);
      entry.cpu.push(out.cpu);
      times.set(name, entry);
    }
  }
  const base = times.get('no provider')!;
  for (const [name, { wall, cpu }] of times) {
    const ratio = median(wall.map((w, i) => w / base.wall[i]!));
    lines.push(
      `${workload.padEnd(9)} ${name.padEnd(18)} wall ${median(wall).toFixed(3)} ms/run (x${ratio.toFixed(3)}), cpu ${median(cpu).toFixed(3)} ms/run${name === 'no provider' ? '' : `, ${spans} spans/run`}`,
    );
  }
}

// the lookup a run makes to tell whether a provider is registered
trace.disable();
const lookups = 1_000_000;
const start = performance.now();
for (let i = 0; i < lookups; i++) runTracer(undefined);
const lookupNs = ((performance.now() - start) * 1e6) / lookups;
lines.push(`runTracer() with no provider registered: ${lookupNs.toFixed(1)} ns per run`);
console.log(lines.join('\n'));
