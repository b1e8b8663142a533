// Scale-out over Postgres: short runs (bench/scale-out-flow.tsx, 3 durable steps each) on 2
// `june worker` processes sharing a throwaway PostgreSQL (DBOS), against the same runs in one
// process with the file journal (and with no journal, the floor):
// - throughput: N runs enqueued at once (20 in flight: 2 workers x 10, or 20 at once in one
//   process), runs/s from the first enqueue to the last finish;
// - per-step overhead: runs one at a time; a run's time on its worker (DBOS's dequeuedAt to
//   completedAt) or in the process, less the floor's, per durable step, median.
//   node --import tsx bench/scale-out.ts [--quick]
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileJournalStore, run, type RunOptions } from 'june';
import { jsx } from 'june/jsx-runtime';
import { RunClient } from '../src/dbos/run-client.js';
import { loadDbos } from '../src/dbos/load-dbos.js';
import { RUN_WORKFLOW } from '../src/dbos/names.js';
import { postgresMissing, startPostgres } from '../test/helpers/postgres.js';
import ScaleOutFlow, { STEPS_PER_RUN } from './scale-out-flow.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const flowFile = join(root, 'bench', 'scale-out-flow.tsx');
const cliBin = join(root, 'dist', 'src', 'cli', 'bin.js');
const WORKERS = 2;
const PER_WORKER = 10;

interface Sizes {
  runs: number;
  sequential: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

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

/** Starts `june worker` and resolves once it takes runs. */
function startWorker(database: string, executor: string): Promise<ChildProcess> {
  const args = [cliBin, 'worker', flowFile, '--database', database, '--executor', executor];
  const child = spawn(process.execPath, [...args, '--concurrency', String(PER_WORKER)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('june worker')) resolve(child);
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) =>
      reject(new Error(`june worker ${executor} ended (${code}): ${out}`)),
    );
  });
}

type Status = import('@dbos-inc/dbos-sdk').WorkflowStatus;

/** The statuses of runs `ids`, once all of them ended (polled every 100 ms). */
async function finished(database: string, ids: string[]): Promise<Status[]> {
  const { DBOSClient } = await loadDbos();
  const client = await DBOSClient.create({ systemDatabaseUrl: database });
  try {
    for (;;) {
      const done = await client.listWorkflows({ workflowName: RUN_WORKFLOW, workflowIDs: ids });
      if (done.length === ids.length && done.every((s) => s.completedAt !== undefined)) {
        const failed = done.find((s) => s.status !== 'SUCCESS');
        if (failed) throw new Error(`run ${failed.workflowID} ended ${failed.status}`);
        return done;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.destroy();
  }
}

/** Over Postgres: throughput of `runs` at once, and run times on the worker one at a time. */
async function overPostgres(database: string, sizes: Sizes) {
  const workers = [await startWorker(database, 'bench-a'), await startWorker(database, 'bench-b')];
  const client = await RunClient.connect(database);
  const enqueue = (prefix: string, count: number) =>
    Promise.all(
      Array.from({ length: count }, (_, n) =>
        client.enqueue({ workflow: 'scale-out-flow', runId: `${prefix}-${n}`, props: { n } }),
      ),
    );
  try {
    await finished(database, await enqueue('warm', 10));
    const times: number[] = [];
    for (let i = 0; i < sizes.sequential; i++) {
      const [status] = await finished(database, await enqueue(`one-${i}`, 1));
      times.push(status!.completedAt! - status!.dequeuedAt!);
    }
    const start = Date.now();
    const statuses = await finished(database, await enqueue('many', sizes.runs));
    const end = Math.max(...statuses.map((s) => s.completedAt!));
    const byWorker = new Set(statuses.map((s) => s.executorId)).size;
    return { run: median(times), throughput: sizes.runs / ((end - start) / 1000), byWorker };
  } finally {
    await client.close();
    for (const worker of workers) worker.kill('SIGTERM');
    await Promise.all(workers.map((w) => new Promise((resolve) => w.once('exit', resolve))));
  }
}

/**
 * The bench as a markdown section (`## Scale-out over Postgres`): throughput and per-step
 * overhead of runs on 2 workers over PostgreSQL against one process with the file journal.
 * `quick`: 20 runs and 5 one at a time (else 200 and 20). Without PostgreSQL server
 * binaries (or without `npm run build`), a section saying it was skipped.
 */
export async function runScaleOutSection(opts: { quick: boolean }): Promise<string> {
  const heading = '## Scale-out over Postgres\n\n';
  if (postgresMissing()) return `${heading}skipped: no PostgreSQL (install postgresql)\n`;
  if (!existsSync(cliBin)) return `${heading}skipped: June is not built (npm run build)\n`;
  const sizes: Sizes = opts.quick ? { runs: 20, sequential: 5 } : { runs: 200, sequential: 20 };
  const here = await inProcess(sizes);
  const pg = await startPostgres();
  let db: Awaited<ReturnType<typeof overPostgres>>;
  try {
    db = await overPostgres(pg.url('june_bench'), sizes);
  } finally {
    await pg.stop();
  }
  const perStep = (ms: number) => ((ms - here.floor) / STEPS_PER_RUN).toFixed(2);
  return (
    heading +
    `${sizes.runs} short runs (${STEPS_PER_RUN} durable steps each: two model calls on a scripted model, one tool), ` +
    `${WORKERS * PER_WORKER} in flight; per-step overhead from ${sizes.sequential} runs one at a time, ` +
    `over the same run in one process with no journal (${here.floor.toFixed(2)} ms a run).\n\n` +
    '| mode | throughput (runs/s) | run time, one at a time (ms) | overhead per step (ms) |\n' +
    '| --- | ---: | ---: | ---: |\n' +
    `| one process, file journal | ${here.throughput.toFixed(1)} | ${here.journal.toFixed(2)} | ${perStep(here.journal)} |\n` +
    `| ${WORKERS} workers over PostgreSQL (DBOS) | ${db.throughput.toFixed(1)} | ${db.run.toFixed(2)} | ${perStep(db.run)} |\n\n` +
    `Over PostgreSQL the run time is DBOS's dequeuedAt to completedAt on the worker (the queue's polling wait excluded); ` +
    `throughput counts from the first enqueue to the last finish (runs taken by ${db.byWorker} of ${WORKERS} workers).\n`
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  console.log(await runScaleOutSection({ quick: process.argv.includes('--quick') }));
