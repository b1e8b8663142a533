// Where one `june worker` spends a run of the throughput bench (bench/scale-out-slow-flow.tsx,
// 10 runs at once): its CPU per run (from /proc, Linux only), the statements PostgreSQL ran
// per run with their execution time (pg_stat_statements), how long a run's slot stayed empty,
// and where a run's time goes between its steps (their start and end in operation_outputs).
// With --cpu-prof, the worker writes a .cpuprofile into the OS temp dir when it stops (open
// it in Chrome DevTools).
//   node --import tsx bench/worker-profile.ts [runs=300] [--cpu-prof] [--polling=<ms>] [--concurrency=<n>]
// It prints first what the worker's queue polling costs while the worker is idle.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunClient } from '../src/dbos/run-client.js';
import { pgClient, type PgClient } from '../src/dbos/pg-driver.js';
import { startPostgres } from '../test/helpers/postgres.js';
import {
  BENCH_MARK,
  enableStatementCounts,
  resetStatementCounts,
  statementCounts,
} from './pg-statements.js';
import { startProcess } from './scale-out.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const cliBin = join(root, 'dist', 'src', 'cli', 'bin.js');
const flowFile = join(root, 'bench', 'scale-out-slow-flow.tsx');
const CONCURRENCY = Number(
  process.argv.find((a) => a.startsWith('--concurrency='))?.slice('--concurrency='.length) ?? 10,
);
const runs = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 300);
const polling = process.argv.find((a) => a.startsWith('--polling='))?.slice('--polling='.length);
const profileDir = process.argv.includes('--cpu-prof')
  ? mkdtempSync(join(tmpdir(), 'june-worker-profile-'))
  : undefined;

/** ms of CPU the process `pid` used so far (user and system, all its threads). */
function cpuMs(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0; // gone (a backend that ended)
  }
  const fields = stat.split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
}

interface StepRow {
  workflow_uuid: string;
  function_name: string;
  s: string;
  c: string;
  ws: string;
  wc: string;
}

/** Mean ms of each part of a run, from its steps' start and end times. */
function runParts(rows: StepRow[]): Map<string, number> {
  const byRun = new Map<string, StepRow[]>();
  for (const row of rows)
    byRun.set(row.workflow_uuid, [...(byRun.get(row.workflow_uuid) ?? []), row]);
  const parts = new Map<string, number[]>();
  const add = (part: string, ms: number) => parts.set(part, [...(parts.get(part) ?? []), ms]);
  for (const steps of byRun.values()) {
    // the publishing step's record may come after the workflow ended (then refused: no row)
    const events = steps.find((step) => step.function_name === 'june.events');
    const work = steps.filter((step) => step !== events);
    const [first, last] = [work[0], work.at(-1)];
    // calls recorded in June's place table (june.calls) are no DBOS steps: the run's whole time only
    if (!first || !last) {
      const run = steps[0]!;
      add('run', Number(run.wc) - Number(run.ws));
      add('runs whose june.events step was recorded (share)', events ? 1 : 0);
      continue;
    }
    add('dequeued to the first step', Number(first.s) - Number(first.ws));
    work.forEach((step, i) => {
      if (i > 0) add(`gap before step ${i + 1}`, Number(step.s) - Number(work[i - 1]!.c));
      add(`step ${i + 1} (${step.function_name.split(' ')[0]})`, Number(step.c) - Number(step.s));
    });
    add('last step to the workflow end', Number(last.wc) - Number(last.c));
    add('runs whose june.events step was recorded (share)', events ? 1 : 0);
    add('run', Number(last.wc) - Number(last.ws));
  }
  const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
  return new Map([...parts].map(([part, list]) => [part, mean(list)]));
}

/** Enqueues `n` runs at once and waits for them; what the database says of them. */
async function batch(client: RunClient, db: PgClient, n: number) {
  const start = Date.now();
  const ids = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      client.enqueue({ workflow: 'scale-out-slow-flow', props: { n: i } }),
    ),
  );
  const done = `${BENCH_MARK} SELECT count(*)::int AS done FROM dbos.workflow_status WHERE workflow_uuid = ANY($1) AND status IN ('SUCCESS', 'ERROR', 'CANCELLED')`;
  while ((await db.query(done, [ids])).rows[0]!.done !== n)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const { rows } = await db.query(
    `${BENCH_MARK} SELECT max(completed_at)::bigint AS e, min(started_at_epoch_ms)::bigint AS s, sum(completed_at - started_at_epoch_ms)::float AS busy FROM dbos.workflow_status WHERE workflow_uuid = ANY($1)`,
    [ids],
  );
  const [end, first, busy] = [Number(rows[0]!.e), Number(rows[0]!.s), Number(rows[0]!.busy)];
  const steps = await db.query(
    `${BENCH_MARK} SELECT o.workflow_uuid, o.function_name, o.started_at_epoch_ms AS s, o.completed_at_epoch_ms AS c, w.started_at_epoch_ms AS ws, w.completed_at AS wc FROM dbos.operation_outputs o JOIN dbos.workflow_status w USING (workflow_uuid) WHERE o.workflow_uuid = ANY($1) ORDER BY o.workflow_uuid, o.function_id`,
    [ids],
  );
  return {
    perSecond: n / ((end - start) / 1000),
    emptySlotMs: (CONCURRENCY * (end - first) - busy) / n,
    parts: runParts(steps.rows as unknown as StepRow[]),
  };
}

const pg = await startPostgres();
const work = mkdtempSync(join(tmpdir(), 'june-worker-profile-ledger-'));
writeFileSync(join(work, 'ledger'), '');
const database = pg.url('june_worker_profile');
await enableStatementCounts(pg);
const args = [cliBin, 'worker', flowFile, '--database', database, '--executor', 'profiled'];
args.push('--concurrency', String(CONCURRENCY));
if (polling) args.push('--polling-interval', polling);
const flags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
const worker = await startProcess([...flags, ...args], 'june worker', 'june worker', {
  JUNE_BENCH_LEDGER: join(work, 'ledger'),
});
const client = await RunClient.connect(database);
const db = pgClient({ connectionString: database });
await db.connect();
try {
  // what the worker's queue polling costs while it has nothing to run, in statements a second
  await batch(client, db, 10);
  await resetStatementCounts(pg);
  const idleMs = 3000;
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  const idle = [...(await statementCounts(pg)).values()].reduce((a, b) => a + b, 0);
  console.log(`an idle worker: ${((idle * 1000) / idleMs).toFixed(0)} statements a second`);
  await batch(client, db, 100); // warm-up
  await resetStatementCounts(pg);
  const backends = async () =>
    new Map(
      (await db.query(`${BENCH_MARK} SELECT pid FROM pg_stat_activity`)).rows.map((row) => {
        const pid = Number(row.pid);
        return [pid, cpuMs(pid)] as const;
      }),
    );
  const pgBefore = await backends();
  const cpu = cpuMs(worker.pid!);
  const measured = await batch(client, db, runs);
  const workerCpu = (cpuMs(worker.pid!) - cpu) / runs;
  // PostgreSQL's backends (those alive at the end; one that started meanwhile counts from 0)
  let pgCpu = 0;
  for (const [pid, after] of await backends()) pgCpu += after - (pgBefore.get(pid) ?? 0);
  const admin = pgClient({ connectionString: pg.url('postgres') });
  await admin.connect();
  const { rows } = await admin.query(
    `${BENCH_MARK} SELECT calls::float AS calls, total_exec_time AS ms, query FROM pg_stat_statements WHERE query NOT LIKE '%june-bench%' ORDER BY calls DESC`,
  );
  await admin.end();
  const total = (key: 'calls' | 'ms') => rows.reduce((sum, row) => sum + Number(row[key]), 0);
  console.log(
    `${runs} runs, ${CONCURRENCY} at once on one worker: ${measured.perSecond.toFixed(1)} runs/s`,
  );
  console.log(`worker CPU: ${workerCpu.toFixed(2)} ms a run`);
  console.log(`PostgreSQL backends' CPU: ${(pgCpu / runs).toFixed(2)} ms a run`);
  console.log(`a slot stayed empty ${measured.emptySlotMs.toFixed(1)} ms a run`);
  console.log(
    `PostgreSQL: ${(total('calls') / runs).toFixed(1)} statements a run, ${(total('ms') / runs).toFixed(2)} ms of execution`,
  );
  for (const row of rows.slice(0, 16))
    console.log(
      `  ${(Number(row.calls) / runs).toFixed(2)}  ${(Number(row.ms) / runs).toFixed(2)} ms  ${String(row.query).replace(/\s+/g, ' ').slice(0, 110)}`,
    );
  console.log('a run, mean ms:');
  for (const [part, ms] of measured.parts) console.log(`  ${part}: ${ms.toFixed(1)}`);
} finally {
  await client.close();
  await db.end();
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.kill('SIGTERM');
  await exited;
  await pg.stop();
  rmSync(work, { recursive: true, force: true });
  if (profileDir) console.log(`CPU profile in ${profileDir}`);
}
