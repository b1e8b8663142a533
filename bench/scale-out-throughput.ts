// Throughput that scales with workers: bench/scale-out-slow-flow.tsx (3 durable steps, its two
// model calls answering after 200 ms each, so a run waits about 400 ms and works a few ms) on
// 1, 2 and 4 `june worker` processes over a throwaway PostgreSQL, against the same runs in one
// process with the file journal at the same concurrency:
// - runs/s of a batch enqueued at once, from the first enqueue to the last finish, with each
//   worker running `concurrency` runs at once (and the one process `concurrency` at once);
//   each side warmed up alike first (100 runs in the one process, 100 on each worker as it
//   is added), and the one process run again right after the 1-worker batch, so load from
//   other work on the machine weighs on both (the load average is given at each row);
// - the largest concurrency per worker before a run's time degrades: one worker at 10, 25, 50
//   and 100 runs at once, its runs/s and its runs' time (dequeued to completed, p50 / p95);
// - 1,000 runs enqueued at once on 4 workers: every run succeeded once (statuses and tool
//   checkpoints from the database; tool executions from a ledger the tool appends to).
//   node --import tsx bench/scale-out-throughput.ts [--quick] [--sweep] [--polling=MS]
// --sweep: only the one worker at 10, 25, 50 and 100 runs at once against the one process
// (each worker warmed up first), with the worker's CPU per run and the load average per row.
import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileJournalStore, run } from 'june';
import { jsx } from 'june/jsx-runtime';
import { RunClient } from '../src/dbos/run-client.js';
import { pgClient, type PgClient } from '../src/dbos/pg-driver.js';
import { QUEUE_POLLING_MS } from '../src/dbos/names.js';
import { postgresMissing, startPostgres } from '../test/helpers/postgres.js';
import { BENCH_MARK } from './pg-statements.js';
import { percentile, startProcess } from './scale-out.js';
import ScaleOutSlowFlow, { MODEL_DELAY_MS } from './scale-out-slow-flow.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const flowFile = join(root, 'bench', 'scale-out-slow-flow.tsx');
const cliBin = join(root, 'dist', 'src', 'cli', 'bin.js');
const WORKFLOW = 'scale-out-slow-flow';
/** Runs at once per worker (and in the one process) for the scaling rows: June's default. */
const CONCURRENCY = 10;
const log = (line: string) => process.stderr.write(`${line}\n`);

/** One batch: its runs/s and its runs' times. */
interface Batch {
  label: string;
  concurrency: number;
  runs: number;
  perSecond: number;
  /** A run's time (dequeued to completed on a worker; start to end in one process), ms. */
  runTime: [number, number];
  /** How many workers took runs (0 in one process). */
  workers: number;
  /** The machine's 1-minute load average as the batch ended. */
  load: number;
  /** ms of this process's CPU per run (the one process's batches only). */
  cpu?: number;
}

const load = () => Math.round(loadavg()[0]! * 10) / 10;

const p50p95 = (values: number[]): [number, number] => [
  Math.round(percentile(values, 50)),
  Math.round(percentile(values, 95)),
];

/** `runs` runs in this process with the file journal, `concurrency` at once. */
async function inProcess(runs: number, concurrency: number): Promise<Batch> {
  const dir = mkdtempSync(join(tmpdir(), 'june-bench-slow-'));
  try {
    const options = { journal: fileJournalStore({ dir }), stream: false };
    const times: number[] = [];
    let next = 0;
    const lane = async () => {
      while (next < runs) {
        const n = next++;
        const t0 = performance.now();
        await run(jsx(ScaleOutSlowFlow, { n }), options).result;
        times.push(performance.now() - t0);
      }
    };
    const start = performance.now();
    const cpuBefore = process.cpuUsage();
    await Promise.all(Array.from({ length: concurrency }, lane));
    const seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpuBefore);
    return {
      label: 'one process, file journal',
      concurrency,
      runs,
      perSecond: runs / seconds,
      runTime: p50p95(times),
      workers: 0,
      load: load(),
      cpu: (used.user + used.system) / 1000 / runs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts `june worker` on the slow flow. */
function startWorker(
  database: string,
  executor: string,
  concurrency: number,
  ledger: string,
  pollingMs: number | undefined,
): Promise<ChildProcess> {
  const args = [cliBin, 'worker', flowFile, '--database', database, '--executor', executor];
  args.push('--concurrency', String(concurrency));
  if (pollingMs !== undefined) args.push('--polling-interval', String(pollingMs));
  return startProcess(args, 'june worker', `june worker ${executor}`, {
    JUNE_BENCH_LEDGER: ledger,
  });
}

async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  const exits = workers.map((w) => new Promise((resolve) => w.once('exit', resolve)));
  for (const worker of workers) worker.kill('SIGTERM');
  await Promise.all(exits);
}

interface RunRow {
  workflow_uuid: string;
  status: string;
  executor_id: string;
  started_at_epoch_ms: string;
  completed_at: string;
}

/** Waits (a count every 100 ms) until every run of `ids` ended; their rows. */
async function ended(db: PgClient, ids: string[]): Promise<RunRow[]> {
  for (;;) {
    const { rows } = await db.query(
      `${BENCH_MARK} SELECT count(*)::int AS done FROM dbos.workflow_status WHERE workflow_uuid = ANY($1) AND status IN ('SUCCESS', 'ERROR', 'CANCELLED')`,
      [ids],
    );
    if (rows[0]!.done === ids.length) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { rows } = await db.query(
    `${BENCH_MARK} SELECT workflow_uuid, status, executor_id, started_at_epoch_ms, completed_at FROM dbos.workflow_status WHERE workflow_uuid = ANY($1)`,
    [ids],
  );
  const failed = (rows as unknown as RunRow[]).find((row) => row.status !== 'SUCCESS');
  if (failed) throw new Error(`run ${failed.workflow_uuid} ended ${failed.status}`);
  return rows as unknown as RunRow[];
}

/** `runs` runs enqueued at once on the workers running; runs/s from the first enqueue to the last finish. */
async function onWorkers(
  client: RunClient,
  db: PgClient,
  runs: number,
  concurrency: number,
  label: string,
): Promise<Batch & { ids: string[] }> {
  const start = Date.now();
  const ids = await Promise.all(
    Array.from({ length: runs }, (_, n) => client.enqueue({ workflow: WORKFLOW, props: { n } })),
  );
  const rows = await ended(db, ids);
  const end = Math.max(...rows.map((row) => Number(row.completed_at)));
  const batch = {
    label,
    concurrency,
    runs,
    perSecond: runs / ((end - start) / 1000),
    runTime: p50p95(rows.map((r) => Number(r.completed_at) - Number(r.started_at_epoch_ms))),
    workers: new Set(rows.map((row) => row.executor_id)).size,
    load: load(),
    ids,
  };
  log(
    `(scale-out-throughput) ${label} at ${concurrency}: ${batch.perSecond.toFixed(1)} runs/s, run ${batch.runTime.join('/')} ms, ${batch.workers} workers, load ${batch.load}`,
  );
  return batch;
}

/** What the database and the tool's ledger say about the runs `ids`. */
async function onceEach(db: PgClient, ids: string[], ledger: string) {
  const { rows: statuses } = await db.query(
    `${BENCH_MARK} SELECT status, count(*)::int AS runs FROM dbos.workflow_status WHERE workflow_uuid = ANY($1) GROUP BY status`,
    [ids],
  );
  const { rows: tools } = await db.query(
    `${BENCH_MARK} SELECT run_id AS workflow_uuid, count(*)::int AS n FROM june.calls WHERE run_id = ANY($1) AND place LIKE 'tool %' GROUP BY run_id`,
    [ids],
  );
  const wanted = new Set(ids);
  const executions = new Map<string, number>();
  for (const line of readFileSync(ledger, 'utf8').split('\n'))
    if (wanted.has(line)) executions.set(line, (executions.get(line) ?? 0) + 1);
  const counts = [...executions.values()];
  return {
    succeeded: statuses.find((row) => row.status === 'SUCCESS')?.runs as number | undefined,
    otherStatuses: statuses.filter((row) => row.status !== 'SUCCESS').length,
    toolSteps: tools.length,
    toolStepsTwice: tools.filter((row) => (row.n as number) !== 1).length,
    executed: counts.length,
    executedTwice: counts.filter((n) => n !== 1).length,
  };
}

/**
 * The bench as a markdown section. `quick`: smaller batches, no 1,000-run batch beyond 100.
 * `pollingMs` runs the workers with another queue polling interval than June's default.
 */
export async function runScaleOutThroughputSection(opts: {
  quick: boolean;
  pollingMs?: number;
  sweepOnly?: boolean;
}): Promise<string> {
  const heading = '## Scale-out throughput with a slow model\n\n';
  if (postgresMissing()) return `${heading}skipped: no PostgreSQL (install postgresql)\n`;
  if (!existsSync(cliBin)) return `${heading}skipped: June is not built (npm run build)\n`;
  const perSlot = opts.quick ? 4 : 20;
  const sweep = opts.quick ? [10, 50] : [10, 25, 50, 100];
  const manyRuns = opts.quick ? 100 : 1000;
  const polling = opts.pollingMs ?? QUEUE_POLLING_MS;
  // runs each side makes before it is measured (the one process, each worker started): the
  // compiler's work on code seen for the first time weighs on the first batch otherwise
  const warmUp = opts.quick ? 20 : 100;
  // one process first, before PostgreSQL and the workers are up
  await inProcess(warmUp, CONCURRENCY);
  const local: Batch[] = [];
  for (const c of sweep) local.push(await inProcess(Math.max(200, perSlot * c), c));
  for (const b of local)
    log(
      `(scale-out-throughput) one process at ${b.concurrency}: ${b.perSecond.toFixed(1)} runs/s, load ${b.load}`,
    );
  const pg = await startPostgres();
  const work = mkdtempSync(join(tmpdir(), 'june-bench-ledger-'));
  const ledger = join(work, 'ledger');
  writeFileSync(ledger, '');
  const database = pg.url('june_bench_slow');
  const workers: ChildProcess[] = [];
  let client: RunClient | undefined;
  const db = pgClient({ connectionString: database });
  try {
    /** Starts `count` more workers and warms them up: `warmUp` runs for each. */
    const add = async (count: number, concurrency: number): Promise<RunClient> => {
      for (let i = 0; i < count; i++)
        workers.push(
          await startWorker(
            database,
            `slow-${workers.length}`,
            concurrency,
            ledger,
            opts.pollingMs,
          ),
        );
      if (!client) {
        // once the first worker has created the database
        client = await RunClient.connect(database);
        await db.connect();
      }
      await onWorkers(client, db, warmUp * workers.length, concurrency, 'warm-up');
      return client;
    };
    if (opts.sweepOnly) return await sweepOnly(local, sweep, perSlot, add, db, workers);
    const runs = await add(1, CONCURRENCY);
    const scaling: Batch[] = [];
    scaling.push(await onWorkers(runs, db, perSlot * CONCURRENCY, CONCURRENCY, '1 worker'));
    // the one process again, right after the worker's batch: the same moment's load on both
    const localAgain = await inProcess(perSlot * CONCURRENCY, CONCURRENCY);
    log(
      `(scale-out-throughput) one process again at ${CONCURRENCY}: ${localAgain.perSecond.toFixed(1)} runs/s, load ${localAgain.load}`,
    );
    await add(1, CONCURRENCY);
    scaling.push(await onWorkers(runs, db, 2 * perSlot * CONCURRENCY, CONCURRENCY, '2 workers'));
    await add(2, CONCURRENCY);
    scaling.push(await onWorkers(runs, db, 4 * perSlot * CONCURRENCY, CONCURRENCY, '4 workers'));
    const many = await onWorkers(runs, db, manyRuns, CONCURRENCY, `${manyRuns} runs at once`);
    const once = await onceEach(db, many.ids, ledger);
    log(`(scale-out-throughput) ${manyRuns} runs: ${JSON.stringify(once)}`);
    await stopWorkers(workers.splice(0));
    const perWorker: Batch[] = [];
    for (const c of sweep) {
      await add(1, c);
      perWorker.push(await onWorkers(runs, db, Math.max(200, perSlot * c), c, '1 worker'));
      await stopWorkers(workers.splice(0));
    }
    return report({ local, localAgain, scaling, perWorker, many, once, polling, manyRuns });
  } finally {
    await client?.close();
    await db.end().catch(() => {});
    await stopWorkers(workers);
    await pg.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** ms of CPU the process `pid` used so far (Linux's /proc; 0 elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** The sweep alone: one worker at each concurrency against the one process, with its CPU per run. */
async function sweepOnly(
  local: Batch[],
  sweep: number[],
  perSlot: number,
  add: (count: number, concurrency: number) => Promise<RunClient>,
  db: PgClient,
  workers: ChildProcess[],
): Promise<string> {
  let rows = '';
  for (const c of sweep) {
    const client = await add(1, c);
    const before = cpuMs(workers[0]!.pid);
    const runs = Math.max(200, perSlot * c);
    const b = await onWorkers(client, db, runs, c, '1 worker');
    const cpu = (cpuMs(workers[0]!.pid) - before) / runs;
    await stopWorkers(workers.splice(0));
    const here = local.find((l) => l.concurrency === c)!;
    rows += `| ${c} | ${b.perSecond.toFixed(1)} | ${b.runTime[0]} / ${b.runTime[1]} | ${cpu.toFixed(1)} | ${here.perSecond.toFixed(1)} | ${here.runTime[0]} / ${here.runTime[1]} | ${(here.cpu ?? 0).toFixed(1)} | ${(b.perSecond / here.perSecond).toFixed(2)}× | ${here.load} / ${b.load} |\n`;
  }
  return (
    '## One worker at more runs at once\n\n' +
    '| runs at once | worker runs/s | worker run time p50 / p95 (ms) | worker CPU per run (ms) | one process runs/s | its run time p50 / p95 (ms) | its CPU per run (ms) | worker over one process | load average (process / worker) |\n' +
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n' +
    rows
  );
}

function report(r: {
  local: Batch[];
  localAgain: Batch;
  scaling: Batch[];
  perWorker: Batch[];
  many: Batch;
  once: Awaited<ReturnType<typeof onceEach>>;
  polling: number;
  manyRuns: number;
}): string {
  const fixed = (n: number) => n.toFixed(1);
  const at = (list: Batch[], c: number) => list.find((b) => b.concurrency === c);
  const oneLocal = at(r.local, CONCURRENCY)!;
  const [one, two, four] = r.scaling as [Batch, Batch, Batch];
  const row = (b: Batch, ratio: string) =>
    `| ${b.label} | ${b.concurrency} | ${b.runs} | ${fixed(b.perSecond)} | ${ratio} | ${b.runTime[0]} | ${b.runTime[1]} | ${b.load} |\n`;
  const again = r.localAgain;
  const localMean = (oneLocal.perSecond + again.perSecond) / 2;
  const floor = 2 * MODEL_DELAY_MS;
  const sweepRows = r.perWorker
    .map((b) => {
      const here = at(r.local, b.concurrency);
      return `| ${b.concurrency} | ${fixed(b.perSecond)} | ${fixed(b.concurrency / (floor / 1000))} | ${b.runTime[0]} | ${b.runTime[1]} | ${here ? fixed(here.perSecond) : '–'} | ${here ? `${here.runTime[0]} / ${here.runTime[1]}` : '–'} | ${here ? `${(b.perSecond / here.perSecond).toFixed(2)}×` : '–'} |\n`;
    })
    .join('');
  const { once } = r;
  return (
    '## Scale-out throughput with a slow model\n\n' +
    `bench/scale-out-throughput.ts: bench/scale-out-slow-flow.tsx, the scale-out section's run (3 durable steps) with a model that answers ${MODEL_DELAY_MS} ms after each call, ` +
    `so a run waits ${floor} ms for its model and works a few ms: runs/s is bound by how many runs wait at once, not by this machine's 2 cores. ` +
    `\`june worker\` processes over a throwaway PostgreSQL (queue polling every ${r.polling} ms), against one process running the same runs with the file journal (\`stream: false\`, as workers run them) at the same concurrency. ` +
    `Runs/s counts from the first enqueue of a batch to the last finish; a run's time is DBOS's dequeuedAt to completedAt on a worker, start to end in the one process. ` +
    `The one process runs its batch at ${CONCURRENCY} at once twice, before the workers start and right after the 1-worker batch, so load from other work on the machine weighs on both sides alike.\n\n` +
    '| mode | runs at once, each | runs | runs/s | over 1 worker | run time p50 (ms) | p95 (ms) | load average |\n' +
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n' +
    row(oneLocal, `${(oneLocal.perSecond / one.perSecond).toFixed(2)}×`) +
    row({ ...one, label: `1 worker` }, '1.00×') +
    row(
      { ...again, label: 'one process again, right after' },
      `${(again.perSecond / one.perSecond).toFixed(2)}×`,
    ) +
    row(
      { ...two, label: `2 workers (took runs: ${two.workers})` },
      `${(two.perSecond / one.perSecond).toFixed(2)}×`,
    ) +
    row(
      { ...four, label: `4 workers (took runs: ${four.workers})` },
      `${(four.perSecond / one.perSecond).toFixed(2)}×`,
    ) +
    '\n' +
    `1 worker over one process with the file journal at ${CONCURRENCY} runs at once: ${(one.perSecond / localMean).toFixed(2)}× (over the mean of its two rows; ${(one.perSecond / oneLocal.perSecond).toFixed(2)}× and ${(one.perSecond / again.perSecond).toFixed(2)}× over each). ` +
    `2 workers over 1: ${(two.perSecond / one.perSecond).toFixed(2)}×. The load average is the machine's over the last minute as each batch ended (2 cores).\n\n` +
    `One worker at more runs at once (${'`--concurrency`'}), against the one process at the same concurrency (as many runs), and the most runs/s the model's wait allows (runs at once over ${floor} ms):\n\n` +
    '| runs at once | worker runs/s | bound | worker run time p50 (ms) | p95 (ms) | one process runs/s | its run time p50 / p95 (ms) | worker over one process |\n' +
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n' +
    sweepRows +
    '\n' +
    `${r.manyRuns} runs enqueued at once on 4 workers (${CONCURRENCY} at once each): ${fixed(r.many.perSecond)} runs/s; ` +
    `${once.succeeded ?? 0} succeeded and ${once.otherStatuses} other statuses in the database; the tool's record stored for ${once.toolSteps} runs, ${once.toolStepsTwice} of them more than once; ` +
    `the tool executed for ${once.executed} runs, ${once.executedTwice} of them more than once (its own ledger, a line per execution).\n`
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const polling = process.argv.find((a) => a.startsWith('--polling='))?.slice('--polling='.length);
  console.log(
    await runScaleOutThroughputSection({
      quick: process.argv.includes('--quick'),
      sweepOnly: process.argv.includes('--sweep'),
      ...(polling ? { pollingMs: Number(polling) } : {}),
    }),
  );
}
