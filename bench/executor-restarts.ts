// The kill-and-restart check of workers on one machine, at scale: test/dbos/executor-hold runs
// one round, this runs 20 (or the count given). Each round kills a worker that has the default
// executor id with kill -9 while it holds a run in a model call and a second worker runs a
// tool, then starts two workers with the default id at once: one must take the id and recover
// the run, the other must be refused, and no tool may run twice.
// Usage: npx tsx bench/executor-restarts.ts [rounds=20]   (needs `npm run build` and initdb)
import { RunClient } from 'june/dbos';
import { ledgerProject, startWorker } from '../test/dbos/support.js';
import { restartRound } from '../test/dbos/executor-restarts.js';
import { startPostgres } from '../test/helpers/postgres.js';

const rounds = Number(process.argv[2] ?? 20);
const pg = await startPostgres();
const project = ledgerProject();
const database = pg.url('june_executor_restarts');
// the first worker creates the database; the rounds start their own
await (await startWorker(project.dir, database, 'setup')).stop();
const client = await RunClient.connect(database);
let broken = 0;
try {
  for (let round = 1; round <= rounds; round++) {
    const started = Date.now();
    const problems = await restartRound({
      dir: project.dir,
      logs: project.logs,
      database,
      client,
      round,
    });
    if (problems.length > 0) broken++;
    console.log(
      `round ${round}: ${problems.length === 0 ? 'one restart took the id, one was refused, every tool ran once' : problems.join('; ')} (${Date.now() - started} ms)`,
    );
  }
} finally {
  await client.close();
  await pg.stop();
  project.remove();
}
console.log(`\n${rounds} rounds: ${broken} broke a promise`);
process.exitCode = broken > 0 ? 1 : 0;
