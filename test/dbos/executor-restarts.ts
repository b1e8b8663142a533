// One round of the kill-and-restart check of workers on one machine (test/dbos/executor-hold
// runs one, `npx tsx bench/executor-restarts.ts` twenty): a worker with the default executor
// id holds a run in its model call while a second worker (its own id) runs a tool; the first
// is killed with kill -9, and two workers with the default id start at once, as a supervisor
// restarting it and an operator starting "another" would. Exactly one takes the id and
// recovers the run; the other is refused with dbos-executor-held. Every tool of both runs
// appends once: a doubled effect is a problem.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { RunClient } from 'june/dbos';
import { startJune, type JuneProcess, type RunningJune } from '../cli/cli-harness.js';
import {
  counts,
  ledgerSource,
  lines,
  startWorker,
  waitFor,
  workerProcess,
  type WorkerProcess,
} from './support.js';

/** What a round needs: a project holding ledger.tsx, its logs folder, the database and a client. */
export interface RoundSetup {
  dir: string;
  logs: string;
  database: string;
  client: RunClient;
  /** Distinguishes this round's runs and files from other rounds'. */
  round: number;
}

/**
 * Runs one round and returns what went wrong (empty when nothing did): doubled effects, a
 * run that did not finish as an uninterrupted one would, or not exactly one restart taking
 * the id. Stops every worker it started.
 */
export async function restartRound(setup: RoundSetup): Promise<string[]> {
  const { dir, logs, database, client, round } = setup;
  // the busy worker's workflow has a queue of its own, so its run cannot go to the other
  writeFileSync(join(dir, 'busy.tsx'), ledgerSource);
  const started: WorkerProcess[] = [];
  const problems: string[] = [];
  try {
    const busy = await startWorker(dir, database, `busy-${round}`, { files: ['busy.tsx'] });
    started.push(busy);
    const held = await startWorker(dir, database, null);
    started.push(held);
    const [inModel, inTool] = [round * 10 + 1, round * 10 + 2];
    await client.enqueue({
      workflow: 'ledger',
      runId: `model-${inModel}`,
      props: { dir: logs, n: inModel, hold: 'model' },
    });
    await client.enqueue({
      workflow: 'busy',
      runId: `tool-${inTool}`,
      props: { dir: logs, n: inTool, hold: 'tool' },
    });
    const holding = (n: number) => () => lines(logs, `holding-${n}`).length > 0;
    await waitFor(holding(inModel), 60_000, 'the model call to hold');
    await waitFor(holding(inTool), 60_000, 'the tool to hold');

    await held.kill();
    started.splice(started.indexOf(held), 1);
    const restarts = [0, 1].map(() =>
      startJune(['worker', 'ledger.tsx', '--database', database], dir),
    );
    const outcomes = new Map<RunningJune, JuneProcess>();
    for (const restart of restarts) void restart.done.then((ended) => outcomes.set(restart, ended));
    const listens = (restart: RunningJune) => restart.output().stdout.includes('june worker');
    await waitFor(
      () => restarts.every((restart) => outcomes.has(restart) || listens(restart)),
      60_000,
      'both restarts to listen or end',
    );
    const listening = restarts.filter((restart) => !outcomes.has(restart) && listens(restart));
    const refused = restarts.map((restart) => outcomes.get(restart));
    const refusals = refused.filter(
      (r) =>
        r?.code === 2 &&
        r.stderr.includes(`june: the executor id "${hostname()}" is held by a live worker`),
    );
    if (listening.length !== 1 || refusals.length !== 1)
      problems.push(
        `round ${round}: ${listening.length} restarts listen and ${refusals.length} were refused (want 1 and 1): ${refused.map((r) => r?.stderr.trim() ?? 'listening').join(' | ')}`,
      );
    writeFileSync(join(logs, `release-${inModel}`), '');
    writeFileSync(join(logs, `release-${inTool}`), '');
    for (const [runId, n] of [
      [`model-${inModel}`, inModel],
      [`tool-${inTool}`, inTool],
    ] as const) {
      const output = (await client.result(runId)).output;
      if (output !== `done ${n}`) problems.push(`round ${round}: ${runId} gave ${String(output)}`);
    }
    for (const n of [inModel, inTool]) {
      const effects = lines(logs, 'effects.log').filter((line) =>
        new RegExp(`^append [es]${n} `).test(line),
      );
      for (const [line, count] of counts(
        effects.map((line) => line.split(' ').slice(0, 2).join(' ')),
      ))
        if (count !== 1) problems.push(`round ${round}: ${line} ran ${count} times`);
      if (effects.length !== 2)
        problems.push(`round ${round}: run ${n} appended ${effects.length} lines, want 2`);
    }
    for (const restart of listening) started.push(workerProcess(restart, hostname()));
  } finally {
    await Promise.all(started.map((worker) => worker.stop().catch(() => {})));
  }
  return problems;
}
