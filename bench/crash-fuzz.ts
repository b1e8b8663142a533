// Crash fuzz at scale: more runs and more kills than the test suite's 30 (see
// test/durable/crash-fuzz.test.ts). Each run is killed with SIGKILL at seeded random moments,
// resumed until it finishes, and checked: finished tools ran once, finished model calls were
// paid once, recorded answers stood, the output equals an uninterrupted run's.
// Usage: npx tsx bench/crash-fuzz.ts [runs=20] [kills per run=10]   (needs `npm run build`)
import { episode, uninterruptedMs } from '../test/durable/crash-fuzz/fuzz-run.js';

const runs = Number(process.argv[2] ?? 20);
const killsPerRun = Number(process.argv[3] ?? 10);
const window = Math.max(200, Math.round((await uninterruptedMs()) * 1.1));
let kills = 0;
let repeated = 0;
let broken = 0;
for (let seed = 1; seed <= runs; seed++) {
  const result = await episode(1000 + seed, killsPerRun, window);
  kills += result.kills;
  repeated += result.repeated;
  const same = JSON.stringify(result.output) === JSON.stringify(result.straight);
  if (result.problems.length > 0 || !same) broken++;
  console.log(
    `run ${seed}: ${result.kills} kills, ${result.attempts} processes, ${result.repeated} in-flight calls ran again, ${same ? 'same output' : 'OUTPUT DIFFERS'}${result.problems.map((p) => `\n  ${p}`).join('')}`,
  );
}
console.log(
  `\n${runs} runs, ${kills} kills (window ${window} ms): ${repeated} in-flight calls ran again (allowed: one per kill), ${broken} runs broke a promise`,
);
process.exitCode = broken > 0 ? 1 : 0;
