// Scale-out over Postgres: short runs (bench/scale-out-flow.tsx, 3 durable steps each) on 2
// `june worker` processes sharing a throwaway PostgreSQL (DBOS), against the same runs in one
// process with the file journal (and with no journal, the floor), and against the same 3 steps
// written directly on DBOS (bench/scale-out-bare.ts) on 2 worker processes over the same server:
// - throughput: N runs enqueued at once (20 in flight: 2 workers x 10, or 20 at once in one
//   process), runs/s from the first enqueue to the last finish;
// - per-step overhead: runs one at a time; a run's time on its worker (DBOS's dequeuedAt to
//   completedAt) or in the process, less the floor's, per durable step, median; over
//   PostgreSQL also less the same path's run with no step (June's flow with no <Step>, the
//   bare workflow doing its work outside any step), so June and bare DBOS compare directly;
// - round trips: statements PostgreSQL executed (pg_stat_statements) per run and per step;
// - latency: enqueue to start (dequeuedAt) and enqueue to the first event a follower reads.
//   node --import tsx bench/scale-out.ts [--quick]
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileJournalStore, run, type RunOptions } from 'june';
import { RunClient as PackageRunClient } from 'june/dbos';
import { jsx } from 'june/jsx-runtime';
import { chatHandler } from 'june/web';
import { RunClient } from '../src/dbos/run-client.js';
import { loadDbos } from '../src/dbos/load-dbos.js';
import { pgClient } from '../src/dbos/pg-driver.js';
import { FOLLOW_POLLING_MS, QUEUE_POLLING_MS, RUN_WORKFLOW } from '../src/dbos/names.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../test/helpers/postgres.js';
import {
  BENCH_MARK,
  enableStatementCounts,
  resetStatementCounts,
  runStatements,
  statementCounts,
  total,
  type StatementCounts,
} from './pg-statements.js';
import { BARE_QUEUES, BARE_WORKFLOW, type BareInput } from './scale-out-bare.js';
import ScaleOutFlow, { STEPS_PER_RUN } from './scale-out-flow.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const flowFile = join(root, 'bench', 'scale-out-flow.tsx');
const chatFile = join(root, 'bench', 'scale-out-chat.tsx');
const cliBin = join(root, 'dist', 'src', 'cli', 'bin.js');
const bareFile = join(root, 'bench', 'scale-out-bare.ts');
/** The polling interval June's workers set on their queues (src/dbos/worker.ts). */
const JUNE_POLLING_MS = QUEUE_POLLING_MS;
const WORKERS = 2;
const PER_WORKER = 10;

interface Sizes {
  runs: number;
  sequential: number;
  /** Runs one at a time per latency row (the row with DBOS's default 1 s polling: a third). */
  latency: number;
  /** Runs one at a time per round-trip count. */
  counted: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The mean of the middle half of `values` (the interquartile mean): DBOS stamps times in whole
 * ms, so a median of run times over PostgreSQL moves in 1 ms steps; this keeps the fraction
 * and, like the median, leaves out the slowest and fastest quarter.
 */
function middleMean(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const quarter = Math.floor(sorted.length / 4);
  const middle = sorted.slice(quarter, sorted.length - quarter);
  return middle.reduce((sum, v) => sum + v, 0) / middle.length;
}

/** The `p`-th percentile (0-100) of `values`, nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** One run in this process; its time in ms. */
async function runHere(n: number, options: RunOptions): Promise<number> {
  const start = performance.now();
  await run(jsx(ScaleOutFlow, { n }), options).result;
  return performance.now() - start;
}

/** In-process: sequential times (no journal, file journal) and the file journal's throughput. */
async function inProcess(sizes: Sizes) {
  const dir = mkdtempSync(join(tmpdir(), 'june-bench-journal-'));
  try {
    const file = { journal: fileJournalStore({ dir }) };
    for (let i = 0; i < 10; i++) {
      await runHere(i, {});
      await runHere(i, file);
    }
    const floor: number[] = [];
    const journal: number[] = [];
    for (let i = 0; i < sizes.sequential; i++) {
      floor.push(await runHere(i, {}));
      journal.push(await runHere(i, file));
    }
    const start = performance.now();
    let next = 0;
    const lane = async () => {
      while (next < sizes.runs) await runHere(next++, file);
    };
    await Promise.all(Array.from({ length: WORKERS * PER_WORKER }, lane));
    const seconds = (performance.now() - start) / 1000;
    return { floor: median(floor), journal: median(journal), throughput: sizes.runs / seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts a worker process and resolves once it prints `ready` (it takes runs then). */
export function startProcess(
  args: string[],
  ready: string,
  what: string,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TSX_TSCONFIG_PATH: join(root, 'bench', 'tsconfig.json'), ...env },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(ready)) resolve(child);
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`${what} ended (${code}): ${out}`)));
  });
}

/** Starts `june worker` on the flow. */
function startWorker(database: string, executor: string): Promise<ChildProcess> {
  const args = [cliBin, 'worker', flowFile, chatFile, '--database', database];
  args.push('--executor', executor);
  return startProcess(
    [...args, '--concurrency', String(PER_WORKER)],
    'june worker',
    `june worker ${executor}`,
  );
}

/** Starts a bare-DBOS worker (bench/scale-out-bare.ts). */
function startBareWorker(database: string, executor: string): Promise<ChildProcess> {
  const args = ['--import', 'tsx', bareFile, database, executor, String(PER_WORKER)];
  return startProcess(args, 'bare worker ready', `bare worker ${executor}`);
}

type Status = import('@dbos-inc/dbos-sdk').WorkflowStatus;
type Client = import('@dbos-inc/dbos-sdk').DBOSClient;

/** The statuses of workflows `ids` (named `workflowName`), once all of them ended (polled every 20 ms). */
export async function finished(
  client: Client,
  workflowName: string,
  ids: string[],
): Promise<Status[]> {
  for (;;) {
    const done = await client.listWorkflows({ workflowName, workflowIDs: ids });
    if (done.length === ids.length && done.every((s) => s.completedAt !== undefined)) {
      const failed = done.find((s) => s.status !== 'SUCCESS');
      if (failed) throw new Error(`run ${failed.workflowID} ended ${failed.status}`);
      return done;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One of the two contenders over PostgreSQL: how it enqueues, waits and follows a run. */
interface Path {
  label: string;
  workflowName: string;
  /** Enqueues one run (`empty`: the run with no step) on `queue`; its id. */
  enqueue(id: string | undefined, n: number, empty: boolean, queue?: string): Promise<string>;
  /** Resolves at the first event a follower in another process reads (reading every `pollingMs`). */
  firstEvent(id: string, pollingMs: number): Promise<void>;
}

async function junePath(database: string): Promise<Path & { close(): Promise<void> }> {
  const client = await RunClient.connect(database);
  return {
    label: 'June',
    workflowName: RUN_WORKFLOW,
    enqueue: (runId, n, empty) =>
      client.enqueue({
        workflow: 'scale-out-flow',
        ...(runId !== undefined ? { runId } : {}),
        props: empty ? { n, empty } : { n },
      }),
    firstEvent: async (id) => {
      for await (const event of client.events(id)) {
        void event;
        return;
      }
    },
    close: () => client.close(),
  };
}

function barePath(client: Client): Path {
  return {
    label: 'bare DBOS',
    workflowName: BARE_WORKFLOW,
    enqueue: async (id, n, empty, queue = BARE_QUEUES[0]!.name) => {
      const workflowID = id ?? `bare-${crypto.randomUUID()}`;
      const input: BareInput = { n, steps: empty ? 0 : 3 };
      await client.enqueue(
        { workflowName: BARE_WORKFLOW, queueName: queue, workflowID, appVersion: 'bench-bare' },
        input,
      );
      return workflowID;
    },
    firstEvent: async (id, pollingIntervalMs) => {
      for await (const value of client.readStream(id, 'events', { pollingIntervalMs })) {
        void value;
        return;
      }
    },
  };
}

/**
 * Run times one at a time (dequeuedAt to completedAt, ms), their interquartile mean: with 3
 * steps and with none.
 */
async function runTimes(client: Client, path: Path, prefix: string, count: number) {
  const full: number[] = [];
  const empty: number[] = [];
  for (let i = 0; i < count; i++) {
    for (const [list, isEmpty] of [
      [full, false],
      [empty, true],
    ] as const) {
      const id = await path.enqueue(`${prefix}-${isEmpty ? 'e' : 'f'}-${i}`, i, isEmpty);
      const [status] = await finished(client, path.workflowName, [id]);
      list.push(status!.completedAt! - status!.dequeuedAt!);
    }
  }
  return { full: middleMean(full), empty: middleMean(empty) };
}

/** Throughput: `runs` enqueued at once, runs/s from the first enqueue to the last finish. */
async function throughput(client: Client, path: Path, prefix: string, runs: number) {
  const start = Date.now();
  const ids = await Promise.all(
    Array.from({ length: runs }, (_, n) => path.enqueue(`${prefix}-${n}`, n, false)),
  );
  const statuses = await finished(client, path.workflowName, ids);
  const end = Math.max(...statuses.map((s) => s.completedAt!));
  return {
    perSecond: runs / ((end - start) / 1000),
    byWorker: new Set(statuses.map((s) => s.executorId)).size,
  };
}

/**
 * Waits a random time under `pollingMs`: a run enqueued right after the previous one ended
 * would come at the same point of the workers' polling cycle each time (a fixed time after
 * the poll that took the previous run); users' runs come at any point of it.
 */
function arrival(pollingMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * pollingMs));
}

/** One latency row: enqueue to start and to the first event, ms, p50 and p95. */
interface Latency {
  label: string;
  pollingMs: number;
  streamPollingMs: number;
  runs: number;
  start: [number, number];
  firstEvent: [number, number];
}

async function latency(
  client: Client,
  path: Path,
  runs: number,
  pollingMs: number,
  streamPollingMs: number,
  queue?: string,
): Promise<Latency> {
  const toStart: number[] = [];
  const toEvent: number[] = [];
  for (let i = 0; i < runs; i++) {
    await arrival(pollingMs);
    const t0 = Date.now();
    const id = await path.enqueue(undefined, i, false, queue);
    await path.firstEvent(id, streamPollingMs);
    toEvent.push(Date.now() - t0);
    const [status] = await finished(client, path.workflowName, [id]);
    toStart.push(status!.dequeuedAt! - t0);
  }
  const p = (values: number[]): [number, number] => [
    percentile(values, 50),
    percentile(values, 95),
  ];
  return {
    label: path.label,
    pollingMs,
    streamPollingMs,
    runs,
    start: p(toStart),
    firstEvent: p(toEvent),
  };
}

/**
 * Durable chat turns one at a time through `june/web`'s chat handler (a new chat each): from
 * the request to the run's start (dequeuedAt) and to the first text chunk of the response.
 */
async function chatLatency(client: Client, database: string, runs: number): Promise<Latency> {
  const runClient = await PackageRunClient.connect(database);
  const handler = chatHandler({ durable: { runs: runClient, workflow: 'scale-out-chat' } });
  const toStart: number[] = [];
  const toText: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      await arrival(JUNE_POLLING_MS);
      const chatId = `chat-${crypto.randomUUID()}`;
      const message = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] };
      const t0 = Date.now();
      const response = await handler(
        new Request('http://127.0.0.1/api/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id: chatId, messages: [message] }),
        }),
      );
      const decoder = new TextDecoder();
      let body = '';
      let first: number | undefined;
      const reader = response.body!.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        body += decoder.decode(read.value, { stream: true });
        if (first === undefined && body.includes('"text-delta"')) first = Date.now();
      }
      if (first === undefined) throw new Error(`chat turn ${chatId} sent no text: ${body}`);
      toText.push(first - t0);
      const [status] = await finished(client, RUN_WORKFLOW, [`${chatId}-1`]);
      toStart.push(status!.dequeuedAt! - t0);
    }
  } finally {
    await runClient.close();
  }
  const p = (values: number[]): [number, number] => [
    percentile(values, 50),
    percentile(values, 95),
  ];
  return {
    label: 'June, durable chat turn (to its first text)',
    pollingMs: JUNE_POLLING_MS,
    streamPollingMs: FOLLOW_POLLING_MS,
    runs,
    start: p(toStart),
    firstEvent: p(toText),
  };
}

/** Statements per run, `count` runs one at a time (waited for by the bench's own query). */
async function countRuns(
  server: TestPostgres,
  database: string,
  path: Path,
  count: number,
  empty: boolean,
  idle: ReadonlySet<string>,
): Promise<StatementCounts> {
  const wait = pgClient({ connectionString: database });
  await wait.connect();
  try {
    await resetStatementCounts(server);
    for (let i = 0; i < count; i++) {
      const id = await path.enqueue(undefined, i, empty);
      for (;;) {
        const { rows } = await wait.query(
          `${BENCH_MARK} SELECT status FROM dbos.workflow_status WHERE workflow_uuid = $1`,
          [id],
        );
        const status = rows[0]?.status;
        if (status === 'SUCCESS') break;
        if (status === 'ERROR' || status === 'CANCELLED') throw new Error(`run ${id}: ${status}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    const counts = runStatements(await statementCounts(server), idle);
    for (const [query, calls] of counts) counts.set(query, calls / count);
    return counts;
  } finally {
    await wait.end();
  }
}

/** The statements the idle system runs (every worker polling its queues), over `seconds`. */
async function idleStatements(server: TestPostgres, seconds: number): Promise<Set<string>> {
  await resetStatementCounts(server);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return new Set((await statementCounts(server)).keys());
}

/** Statements per run with 3 steps and with none, and per step (their difference over 3). */
interface RoundTrips {
  full: number;
  empty: number;
  perStep: number;
  /** Per step, by statement, largest first (for the profile notes). */
  byStatement: Array<[string, number]>;
  /** Per run with no step, by statement, largest first. */
  emptyByStatement: Array<[string, number]>;
}

async function roundTrips(
  server: TestPostgres,
  database: string,
  path: Path,
  count: number,
  idle: ReadonlySet<string>,
): Promise<RoundTrips> {
  const full = await countRuns(server, database, path, count, false, idle);
  const empty = await countRuns(server, database, path, count, true, idle);
  const byStatement = [...new Set([...full.keys(), ...empty.keys()])]
    .map((q): [string, number] => [q, ((full.get(q) ?? 0) - (empty.get(q) ?? 0)) / STEPS_PER_RUN])
    .filter(([, calls]) => Math.abs(calls) >= 0.05)
    .sort((a, b) => b[1] - a[1]);
  return {
    full: total(full),
    empty: total(empty),
    emptyByStatement: [...empty].sort((a, b) => b[1] - a[1]),
    perStep: (total(full) - total(empty)) / STEPS_PER_RUN,
    byStatement,
  };
}

/** Over Postgres, June's workers and the bare-DBOS workers side by side. */
async function overPostgres(server: TestPostgres, sizes: Sizes) {
  const database = server.url('june_bench');
  const counting = await enableStatementCounts(server);
  const workers = [await startWorker(database, 'bench-a'), await startWorker(database, 'bench-b')];
  workers.push(
    await startBareWorker(database, 'bare-a'),
    await startBareWorker(database, 'bare-b'),
  );
  const { DBOSClient } = await loadDbos();
  const client = await DBOSClient.create({ systemDatabaseUrl: database });
  const june = await junePath(database);
  const bare = barePath(client);
  try {
    for (const path of [june, bare]) {
      const ids = await Promise.all(
        Array.from({ length: 10 }, (_, n) => path.enqueue(undefined, n, n % 2 === 1)),
      );
      await finished(client, path.workflowName, ids);
    }
    log('(scale-out) warm');
    const juneTimes = await runTimes(client, june, 'one', sizes.sequential);
    const bareTimes = await runTimes(client, bare, 'bare-one', sizes.sequential);
    log(
      `(scale-out) one at a time: June ${juneTimes.full.toFixed(2)} / ${juneTimes.empty.toFixed(2)} ms, bare ${bareTimes.full.toFixed(2)} / ${bareTimes.empty.toFixed(2)} ms`,
    );
    const latencies = [
      await latency(client, june, sizes.latency, JUNE_POLLING_MS, FOLLOW_POLLING_MS),
      await chatLatency(client, database, sizes.latency),
    ];
    for (const queue of BARE_QUEUES) {
      const runs = queue.pollingMs >= 1000 ? Math.ceil(sizes.latency / 3) : sizes.latency;
      latencies.push(
        await latency(client, bare, runs, queue.pollingMs, FOLLOW_POLLING_MS, queue.name),
      );
    }
    // followers reading more often, and on DBOS's default (what June's followers read with before)
    const junePolled = BARE_QUEUES.find((q) => q.pollingMs === JUNE_POLLING_MS) ?? BARE_QUEUES[0]!;
    latencies.push(
      await latency(client, bare, sizes.latency, junePolled.pollingMs, 20, junePolled.name),
    );
    const slow = Math.ceil(sizes.latency / 3);
    latencies.push(await latency(client, bare, slow, junePolled.pollingMs, 1000, junePolled.name));
    for (const l of latencies)
      log(
        `(scale-out) latency ${l.label} ${l.pollingMs} ms: start ${l.start.join('/')}, first event ${l.firstEvent.join('/')} ms`,
      );
    let trips: { june: RoundTrips; bare: RoundTrips } | undefined;
    if (counting) {
      const idle = await idleStatements(server, 3);
      trips = {
        june: await roundTrips(server, database, june, sizes.counted, idle),
        bare: await roundTrips(server, database, bare, sizes.counted, idle),
      };
      for (const [name, t] of Object.entries(trips)) {
        log(
          `(scale-out) statements ${name}: ${t.full.toFixed(1)} a run, ${t.empty.toFixed(1)} with no step, ${t.perStep.toFixed(1)} per step`,
        );
        for (const [query, calls] of t.byStatement.slice(0, 12))
          log(`  ${calls.toFixed(2)}  ${query.slice(0, 160)}`);
        log(`(scale-out) statements ${name}, a run with no step:`);
        for (const [query, calls] of t.emptyByStatement.slice(0, 16))
          log(`  ${calls.toFixed(2)}  ${query.slice(0, 160)}`);
      }
    }
    // last: 200 runs at once leave DBOS's queue polling backed off for a while
    const juneThroughput = await throughput(client, june, 'many', sizes.runs);
    const bareThroughput = await throughput(client, bare, 'bare-many', sizes.runs);
    log(
      `(scale-out) throughput: June ${juneThroughput.perSecond.toFixed(1)}, bare ${bareThroughput.perSecond.toFixed(1)} runs/s`,
    );
    return {
      june: { ...juneTimes, ...juneThroughput },
      bare: { ...bareTimes, ...bareThroughput },
      latencies,
      trips,
    };
  } finally {
    await june.close();
    await client.destroy();
    for (const worker of workers) worker.kill('SIGTERM');
    await Promise.all(workers.map((w) => new Promise((resolve) => w.once('exit', resolve))));
  }
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/**
 * The bench as a markdown section (`## Scale-out over Postgres`): throughput, per-step
 * overhead, database round trips and queue latency of runs on 2 June workers over PostgreSQL,
 * against one process with the file journal and against the same steps on bare DBOS.
 * `quick`: 20 runs, 5 one at a time, 5 per latency row, 3 per count (else 200, 20, 30 and 10).
 * Without PostgreSQL server binaries (or without `npm run build`), a section saying it was
 * skipped.
 */
export async function runScaleOutSection(opts: { quick: boolean }): Promise<string> {
  const heading = '## Scale-out over Postgres\n\n';
  if (postgresMissing()) return `${heading}skipped: no PostgreSQL (install postgresql)\n`;
  if (!existsSync(cliBin)) return `${heading}skipped: June is not built (npm run build)\n`;
  const sizes: Sizes = opts.quick
    ? { runs: 20, sequential: 5, latency: 5, counted: 3 }
    : { runs: 200, sequential: 20, latency: 30, counted: 10 };
  const here = await inProcess(sizes);
  const pg = await startPostgres();
  let db: Awaited<ReturnType<typeof overPostgres>>;
  try {
    db = await overPostgres(pg, sizes);
  } finally {
    await pg.stop();
  }
  const perStep = (ms: number) => ((ms - here.floor) / STEPS_PER_RUN).toFixed(2);
  const own = (t: { full: number; empty: number }) => (t.full - t.empty) / STEPS_PER_RUN;
  const { june, bare, trips } = db;
  const lat = (l: Latency) =>
    `| ${l.label} | ${l.pollingMs} | ${l.streamPollingMs} | ${l.runs} | ${l.start[0]} | ${l.start[1]} | ${l.firstEvent[0]} | ${l.firstEvent[1]} |\n`;
  return (
    heading +
    `${sizes.runs} short runs (${STEPS_PER_RUN} durable steps each: two model calls on a scripted model, one tool), ` +
    `${WORKERS * PER_WORKER} in flight; per-step overhead from ${sizes.sequential} runs one at a time, ` +
    `over the same run in one process with no journal (${here.floor.toFixed(2)} ms a run). ` +
    `Bare DBOS: the same 3 steps written directly on DBOS (bench/scale-out-bare.ts: a \`DBOS.runStep\` per model call and tool, ` +
    `one \`DBOS.writeStream\` of its event after each, the stream closed at the end), on ${WORKERS} worker processes over the same PostgreSQL in the same run.\n\n` +
    '| mode | throughput (runs/s) | run time, one at a time (ms) | overhead per step (ms) |\n' +
    '| --- | ---: | ---: | ---: |\n' +
    `| one process, file journal | ${here.throughput.toFixed(1)} | ${here.journal.toFixed(2)} | ${perStep(here.journal)} |\n` +
    `| ${WORKERS} workers over PostgreSQL (June on DBOS) | ${june.perSecond.toFixed(1)} | ${june.full.toFixed(2)} | ${perStep(june.full)} |\n` +
    `| ${WORKERS} workers over PostgreSQL (bare DBOS) | ${bare.perSecond.toFixed(1)} | ${bare.full.toFixed(2)} | ${perStep(bare.full)} |\n\n` +
    'June over bare DBOS, each over its own run with no durable step on the same path (June: the flow with no `<Step>`; ' +
    'bare DBOS: the workflow doing the same work outside any step):\n\n' +
    '| over PostgreSQL | June on DBOS | bare DBOS | June ÷ bare DBOS |\n' +
    '| --- | ---: | ---: | ---: |\n' +
    `| run time, ${STEPS_PER_RUN} steps (ms) | ${june.full.toFixed(2)} | ${bare.full.toFixed(2)} | ${ratio(june.full, bare.full)} |\n` +
    `| run time, no step (ms) | ${june.empty.toFixed(2)} | ${bare.empty.toFixed(2)} | ${ratio(june.empty, bare.empty)} |\n` +
    `| overhead per durable step (ms) | ${own(june).toFixed(2)} | ${own(bare).toFixed(2)} | ${ratio(own(june), own(bare))} |\n` +
    `| throughput, ${WORKERS} workers (runs/s) | ${june.perSecond.toFixed(1)} | ${bare.perSecond.toFixed(1)} | ${ratio(june.perSecond, bare.perSecond)} |\n` +
    (trips
      ? `| statements per run, ${STEPS_PER_RUN} steps | ${trips.june.full.toFixed(1)} | ${trips.bare.full.toFixed(1)} | ${ratio(trips.june.full, trips.bare.full)} |\n` +
        `| statements per run, no step | ${trips.june.empty.toFixed(1)} | ${trips.bare.empty.toFixed(1)} | ${ratio(trips.june.empty, trips.bare.empty)} |\n` +
        `| statements per durable step | ${trips.june.perStep.toFixed(1)} | ${trips.bare.perStep.toFixed(1)} | ${ratio(trips.june.perStep, trips.bare.perStep)} |\n`
      : '') +
    '\n' +
    `Over PostgreSQL the run time is DBOS's dequeuedAt to completedAt on the worker (the queue's polling wait excluded), the mean of the middle half of the runs (DBOS stamps whole ms); ` +
    `throughput counts from the first enqueue to the last finish (June's runs taken by ${june.byWorker} of ${WORKERS} workers, bare DBOS's by ${bare.byWorker}). ` +
    (trips
      ? `Statements are those PostgreSQL executed (pg_stat_statements, BEGIN and COMMIT included: one round trip each), ` +
        `${sizes.counted} runs one at a time, the enqueue included; the workers' queue polling is left out (every statement the idle workers also run, ` +
        `the poll that finds a run included, and DBOS's statements on a timer), and a COMMIT counted for each transaction the runs opened; ` +
        `per durable step is the run's count less the count of the run with no step, over ${STEPS_PER_RUN}.\n\n`
      : 'Statements not counted: the server has no pg_stat_statements.\n\n') +
    `Latency, runs one at a time on an idle queue served by ${WORKERS} workers, each enqueued after a random pause under the queue's polling interval: enqueue to start is the client's time before the enqueue ` +
    `to DBOS's dequeuedAt; enqueue to first event, to the first event a follower in another process reads (June: \`RunClient.events\`; ` +
    `a durable chat turn: the request to \`chatHandler({ durable })\` of \`june/web\` to the response's first text chunk, a new chat each time; ` +
    `bare DBOS: \`DBOSClient.readStream\`). Queue polling is the queue's \`minPollingIntervalMs\` (June's workers set ${JUNE_POLLING_MS}; DBOS's default is 1000): June's workers are also woken by the notice \`RunClient\` sends once it enqueued a run, so June's rows wait for no poll; ` +
    `stream polling, the follower's \`pollingIntervalMs\` on \`readStream\` (a \`DBOSClient\` does not listen for notifications; DBOS's default is 1000): June's followers are woken by the workers' stream notifications (\`RunClient\` listens for them) and read every ${FOLLOW_POLLING_MS} ms when none came.\n\n` +
    '| path | queue polling (ms) | stream polling (ms) | runs | enqueue to start p50 (ms) | p95 (ms) | enqueue to first event p50 (ms) | p95 (ms) |\n' +
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n' +
    db.latencies.map(lat).join('')
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  console.log(await runScaleOutSection({ quick: process.argv.includes('--quick') }));
