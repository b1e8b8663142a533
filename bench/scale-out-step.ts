// A durable step on a June worker against a plain `DBOS.runStep`, and June's throughput
// against bare DBOS running the same steps, over one throwaway PostgreSQL in one run:
// - per step: runs one at a time, alternating June's run of bench/scale-out-flow.tsx (3
//   durable steps: two model calls, a tool) and its run with no step, and bare DBOS's run of
//   the same work as 3 plain `DBOS.runStep`s (bench/scale-out-bare.ts with `stream: false`),
//   with a stream write after each step (the scale-out section's contender), and with no step;
//   a step's cost is the run's time less its own path's run with no step, over 3 (DBOS's
//   dequeuedAt to completedAt, the mean of the middle half); each pass gives its ratio, and the
//   table the median and range of the passes;
// - throughput: 200 runs enqueued at once on 2 June workers, on 2 bare workers running the 3
//   plain steps, and on the same bare workers with a stream write after each step; each pass
//   runs the three in turn, runs/s from the first enqueue to the last finish.
//   node --import tsx bench/scale-out-step.ts [--quick] [--passes=N]
import { type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunClient } from '../src/dbos/run-client.js';
import { loadDbos } from '../src/dbos/load-dbos.js';
import { RUN_WORKFLOW } from '../src/dbos/names.js';
import { postgresMissing, startPostgres } from '../test/helpers/postgres.js';
import { BARE_QUEUES, BARE_WORKFLOW, type BareInput } from './scale-out-bare.js';
import { STEPS_PER_RUN } from './scale-out-flow.js';
import { finished, median, startProcess } from './scale-out.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const flowFile = join(root, 'bench', 'scale-out-flow.tsx');
const cliBin = join(root, 'dist', 'src', 'cli', 'bin.js');
const bareFile = join(root, 'bench', 'scale-out-bare.ts');
const WORKERS = 2;
const PER_WORKER = 10;
const log = (line: string) => process.stderr.write(`${line}\n`);
const load = () => Math.round(loadavg()[0]! * 10) / 10;

type Client = import('@dbos-inc/dbos-sdk').DBOSClient;

/** The mean of the middle half (DBOS stamps whole ms). */
function middleMean(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const quarter = Math.floor(sorted.length / 4);
  const middle = sorted.slice(quarter, sorted.length - quarter);
  return middle.reduce((sum, v) => sum + v, 0) / middle.length;
}

/** One kind of run: how it is enqueued and which workflow it is. */
interface Kind {
  /** For run ids. */
  key: string;
  label: string;
  workflowName: string;
  enqueue(id: string, n: number): Promise<string>;
}

function kinds(june: RunClient, dbos: Client) {
  const bare = (key: string, label: string, input: Omit<BareInput, 'n'>): Kind => ({
    key,
    label,
    workflowName: BARE_WORKFLOW,
    enqueue: async (id, n) => {
      const queueName = BARE_QUEUES.find((q) => q.pollingMs === 50)!.name;
      await dbos.enqueue(
        { workflowName: BARE_WORKFLOW, queueName, workflowID: id, appVersion: 'bench-bare' },
        { n, ...input },
      );
      return id;
    },
  });
  const juneKind = (key: string, label: string, empty: boolean): Kind => ({
    key,
    label,
    workflowName: RUN_WORKFLOW,
    enqueue: (runId, n) =>
      june.enqueue({ workflow: 'scale-out-flow', runId, props: empty ? { n, empty } : { n } }),
  });
  return {
    june: juneKind('june', 'June, 3 durable steps', false),
    juneEmpty: juneKind('june-empty', 'June, no step', true),
    plain: bare('bare-plain', 'bare DBOS, 3 plain runStep', { steps: 3, stream: false }),
    streamed: bare('bare-streamed', 'bare DBOS, 3 runStep + writeStream', { steps: 3 }),
    bareEmpty: bare('bare-empty', 'bare DBOS, no step', { steps: 0 }),
  };
}

/** A run's time on its worker, one at a time (dequeuedAt to completedAt), ms. */
async function oneRun(client: Client, kind: Kind, id: string, n: number): Promise<number> {
  await kind.enqueue(id, n);
  const [status] = await finished(client, kind.workflowName, [id]);
  return status!.completedAt! - status!.dequeuedAt!;
}

/** ms of CPU the processes `pids` used so far (Linux's /proc; 0 elsewhere). */
function cpuMs(pids: Array<number | undefined>): number {
  let sum = 0;
  for (const pid of pids)
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      sum += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // not Linux, or gone
    }
  return sum;
}

/** The worker processes of each side, for their CPU. */
const sides = { june: [] as ChildProcess[], bare: [] as ChildProcess[] };

/** `runs` of `kind` enqueued at once; runs/s from the first enqueue to the last finish. */
async function throughput(client: Client, kind: Kind, prefix: string, runs: number) {
  const start = Date.now();
  const ids = await Promise.all(
    Array.from({ length: runs }, (_, n) => kind.enqueue(`${prefix}-${n}`, n)),
  );
  const statuses = await finished(client, kind.workflowName, ids);
  return runs / ((Math.max(...statuses.map((s) => s.completedAt!)) - start) / 1000);
}

interface Pass {
  /** ms per step over each path's run with no step. */
  juneStep: number;
  plainStep: number;
  streamedStep: number;
  /** ms a run, middle mean. */
  times: Record<string, number>;
  perSecond: { june: number; plain: number; streamed: number };
  /** ms of the workers' CPU per run in the throughput batch (/proc). */
  cpu: { june: number; plain: number; streamed: number };
  load: number;
}

const fixed = (n: number, digits = 2) => n.toFixed(digits);
const range = (values: number[], digits = 2) =>
  `${fixed(median(values), digits)} (${fixed(Math.min(...values), digits)}–${fixed(Math.max(...values), digits)})`;

/**
 * The bench as a markdown section (`## A durable step against a plain runStep`). `quick`: 2
 * passes of 6 runs a kind and 40 runs of throughput (else `passes`, default 5, of 16 and 200).
 */
export async function runScaleOutStepSection(opts: {
  quick: boolean;
  passes?: number;
}): Promise<string> {
  const heading = '## A durable step against a plain runStep\n\n';
  if (postgresMissing()) return `${heading}skipped: no PostgreSQL (install postgresql)\n`;
  if (!existsSync(cliBin)) return `${heading}skipped: June is not built (npm run build)\n`;
  const passes = opts.passes ?? (opts.quick ? 2 : 5);
  const perKind = opts.quick ? 6 : 16;
  const many = opts.quick ? 40 : 200;
  const pg = await startPostgres();
  const database = pg.url('june_bench_step');
  const workers: ChildProcess[] = [];
  const { DBOSClient } = await loadDbos();
  let client: Client | undefined;
  let june: RunClient | undefined;
  const loadStart = load();
  try {
    for (let i = 0; i < WORKERS; i++) {
      const args = [cliBin, 'worker', flowFile, '--database', database];
      args.push('--executor', `step-${i}`, '--concurrency', String(PER_WORKER));
      sides.june.push(await startProcess(args, 'june worker', `june worker step-${i}`));
    }
    for (let i = 0; i < WORKERS; i++)
      sides.bare.push(
        await startProcess(
          ['--import', 'tsx', bareFile, database, `bare-${i}`, String(PER_WORKER)],
          'bare worker ready',
          `bare worker ${i}`,
        ),
      );
    workers.push(...sides.june, ...sides.bare);
    client = await DBOSClient.create({ systemDatabaseUrl: database });
    june = await RunClient.connect(database);
    const k = kinds(june, client);
    const order = [k.june, k.juneEmpty, k.plain, k.streamed, k.bareEmpty];
    // warm-up: each kind, one at a time and at once
    for (const kind of order)
      for (let i = 0; i < 10; i++) await oneRun(client, kind, `warm-${kind.key}-${i}`, i);
    for (const kind of [k.june, k.plain, k.streamed])
      await throughput(client, kind, `warm-many-${kind.key}`, many / 2);
    const results: Pass[] = [];
    for (let pass = 0; pass < passes; pass++) {
      const times = new Map<Kind, number[]>(order.map((kind) => [kind, []]));
      for (let i = 0; i < perKind; i++)
        for (const kind of order)
          times.get(kind)!.push(await oneRun(client, kind, `p${pass}-${kind.key}-${i}`, i));
      const t = (kind: Kind) => middleMean(times.get(kind)!);
      const cpu = { june: 0, plain: 0, streamed: 0 };
      const timed = async (key: keyof typeof cpu, kind: Kind, side: ChildProcess[]) => {
        const pids = side.map((w) => w.pid);
        const before = cpuMs(pids);
        const perSecond = await throughput(client!, kind, `p${pass}-many-${kind.key}`, many);
        cpu[key] = (cpuMs(pids) - before) / many;
        return perSecond;
      };
      const perSecond = {
        june: await timed('june', k.june, sides.june),
        plain: await timed('plain', k.plain, sides.bare),
        streamed: await timed('streamed', k.streamed, sides.bare),
      };
      const result: Pass = {
        juneStep: (t(k.june) - t(k.juneEmpty)) / STEPS_PER_RUN,
        plainStep: (t(k.plain) - t(k.bareEmpty)) / STEPS_PER_RUN,
        streamedStep: (t(k.streamed) - t(k.bareEmpty)) / STEPS_PER_RUN,
        times: Object.fromEntries(order.map((kind) => [kind.label, t(kind)])),
        perSecond,
        cpu,
        load: load(),
      };
      results.push(result);
      log(
        `(scale-out-step) pass ${pass + 1}: step June ${fixed(result.juneStep)} ms, plain runStep ${fixed(result.plainStep)}, runStep + writeStream ${fixed(result.streamedStep)} (${fixed(result.juneStep / result.plainStep)}×); ` +
          `runs ${order.map((kind) => `${kind.label} ${fixed(t(kind))}`).join(', ')}; ` +
          `runs/s June ${fixed(perSecond.june, 1)}, plain ${fixed(perSecond.plain, 1)}, streamed ${fixed(perSecond.streamed, 1)}; workers' CPU per run June ${fixed(cpu.june)} ms, plain ${fixed(cpu.plain)}, streamed ${fixed(cpu.streamed)}; load ${result.load}`,
      );
    }
    return report(results, { perKind, many, loadStart });
  } finally {
    await june?.close();
    await client?.destroy();
    for (const worker of workers) worker.kill('SIGTERM');
    await Promise.all(workers.map((w) => new Promise((resolve) => w.once('exit', resolve))));
    await pg.stop();
  }
}

function report(passes: Pass[], sizes: { perKind: number; many: number; loadStart: number }) {
  const of = (f: (p: Pass) => number, digits = 2) => range(passes.map(f), digits);
  const labels = Object.keys(passes[0]!.times);
  return (
    '## A durable step against a plain runStep\n\n' +
    `bench/scale-out-step.ts: ${WORKERS} \`june worker\` processes on bench/scale-out-flow.tsx (3 durable steps: two model calls on a scripted model that answers at once, one tool) and ${WORKERS} bare-DBOS worker processes (bench/scale-out-bare.ts: the same work as 3 \`DBOS.runStep\`s), ${PER_WORKER} runs at once each, over one PostgreSQL, in one run. ` +
    `${passes.length} passes; each runs ${sizes.perKind} runs of each kind one at a time, in turn, then ${sizes.many} runs at once of each. ` +
    `A step's cost is its run's time (DBOS's dequeuedAt to completedAt, the mean of the middle half) less its own path's run with no step, over 3. ` +
    `Each cell is the median of the passes, with their range; load average ${sizes.loadStart} at the start, ${passes.map((p) => p.load).join(', ')} after each pass (2 cores).\n\n` +
    '| | median (range) |\n| --- | ---: |\n' +
    `| June's durable step (ms) | ${of((p) => p.juneStep)} |\n` +
    `| plain \`DBOS.runStep\` (ms) | ${of((p) => p.plainStep)} |\n` +
    `| \`DBOS.runStep\` + \`DBOS.writeStream\` (ms) | ${of((p) => p.streamedStep)} |\n` +
    `| June's step over a plain runStep | ${of((p) => p.juneStep / p.plainStep)}× |\n` +
    labels
      .map((label) => `| run time, ${label} (ms) | ${of((p) => p.times[label]!)} |\n`)
      .join('') +
    `| throughput, ${WORKERS} June workers (runs/s) | ${of((p) => p.perSecond.june, 1)} |\n` +
    `| throughput, ${WORKERS} bare workers, 3 plain runStep (runs/s) | ${of((p) => p.perSecond.plain, 1)} |\n` +
    `| throughput, ${WORKERS} bare workers, runStep + writeStream (runs/s) | ${of((p) => p.perSecond.streamed, 1)} |\n` +
    `| June over bare DBOS, plain steps (throughput) | ${of((p) => p.perSecond.june / p.perSecond.plain)}× |\n` +
    `| June over bare DBOS, steps + stream writes (throughput) | ${of((p) => p.perSecond.june / p.perSecond.streamed)}× |\n` +
    `| workers' CPU per run in the throughput batch, June (ms) | ${of((p) => p.cpu.june)} |\n` +
    `| workers' CPU per run, bare DBOS, plain steps (ms) | ${of((p) => p.cpu.plain)} |\n` +
    `| workers' CPU per run, bare DBOS, steps + stream writes (ms) | ${of((p) => p.cpu.streamed)} |\n`
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const passes = process.argv.find((a) => a.startsWith('--passes='))?.slice('--passes='.length);
  console.log(
    await runScaleOutStepSection({
      quick: process.argv.includes('--quick'),
      ...(passes ? { passes: Number(passes) } : {}),
    }),
  );
}
