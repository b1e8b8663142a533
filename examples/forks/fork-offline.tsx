/**
 * Records examples/forks/release.tsx offline, then forks it twice, in memory: at the issue
 * tracker's answer two levels down (a blocker now, answered by blocker.script.json, so the
 * release stops there), and at the deploy's approval (denied, answered by denied.script.json,
 * so the model reports the denial).
 * Each fork replays what came before its fork point (no model call, no tool) and runs the
 * rest; its model answers come from the script, after the turns the recording answered.
 *
 *   npx tsx examples/forks/fork-offline.tsx
 */
import { fileURLToPath } from 'node:url';
import { forkRun, memoryJournalStore, run, runForkPoints, type Fork } from 'june';
import { loadScript, scriptAfterJournal, scriptedModel } from 'june/testing';
import Release from './release.js';

const script = loadScript(fileURLToPath(new URL('./release.script.json', import.meta.url)));
const blocker = loadScript(fileURLToPath(new URL('./blocker.script.json', import.meta.url)));
const denied = loadScript(fileURLToPath(new URL('./denied.script.json', import.meta.url)));
const store = memoryJournalStore();
const approveAll = () => true;

const recorded = run(<Release />, {
  journal: store,
  model: scriptedModel(script),
  onApproval: approveAll,
});
console.log(`recorded ${recorded.runId}: ${(await recorded.result).output}`);
for (const point of await runForkPoints(store, recorded.runId))
  console.log(`  ${point.n}. ${point.name}  ${point.what}`);

/** Runs a fork with the script's turns (`answers`) the fork's journal has not answered. */
async function runFork(fork: Fork, answers = script): Promise<void> {
  const model = scriptedModel(scriptAfterJournal(answers, await store.read(fork.runId)));
  const result = await run(<Release />, { ...fork.options, model, onApproval: approveAll }).result;
  const replayed = JSON.stringify(result.trace).match(/"replayed":true/g)?.length ?? 0;
  console.log(`fork ${fork.runId} at ${fork.point.name}: ${result.output}`);
  console.log(`  ${fork.live}`);
  console.log(`  forked from ${result.trace.forkedFrom?.runId}; ${replayed} answers replayed`);
}

await runFork(
  await forkRun(store, recorded.runId, {
    at: 'tool issues plan#0.0/summarize#0.0/answer#0.0',
    change: { result: '1 open blocker: login fails' },
  }),
  // the models' turns for the other path: with a blocker, the release does not deploy
  blocker,
);
await runFork(
  await forkRun(store, recorded.runId, {
    at: 'approval deploy plan#1.0',
    change: { answer: 'deny', reason: 'release freeze' },
  }),
  // the models' turns after a denial: the deploy did not run, so nothing was released
  denied,
);
