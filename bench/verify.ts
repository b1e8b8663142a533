// The check every contender passes before it is timed: each workload once, its answer, its
// tool executions and its model calls (so a broken wiring never gets timed).
import type { Contender, WorkloadRunners } from './contender.js';
import { modelStats } from './mock-model.js';
import { COMPOSITE_CALLS, lookupExecutions, STEPS, TOOL_CALLS } from './workloads.js';

/** Runs each workload once and checks the answer and the model calls; throws naming what was wrong. */
export async function verify(contender: Contender, runners: WorkloadRunners): Promise<void> {
  const check = async (
    workload: keyof WorkloadRunners,
    expect: Record<string, { calls: number; minPrompt?: number }>,
    lookups: number,
  ) => {
    for (const key of Object.keys(modelStats)) delete modelStats[key];
    const before = lookupExecutions();
    const answer = await runners[workload]();
    const problems: string[] = [];
    if (answer !== 'done') problems.push(`answered ${JSON.stringify(answer)}, not "done"`);
    if (lookupExecutions() - before !== lookups)
      problems.push(`ran lookup ${lookupExecutions() - before} times, not ${lookups}`);
    for (const [role, want] of Object.entries(expect)) {
      const got = modelStats[role];
      if (got?.calls !== want.calls)
        problems.push(`made ${got?.calls ?? 0} "${role}" model calls, not ${want.calls}`);
      if (want.minPrompt !== undefined && (got?.lastPromptMessages ?? 0) < want.minPrompt)
        problems.push(
          `sent a last "${role}" prompt of ${got?.lastPromptMessages} messages (the conversation was not carried)`,
        );
    }
    if (problems.length)
      throw new Error(`${contender.label}, workload ${workload}: ${problems.join('; ')}`);
  };
  await check('oneStep', { a: { calls: TOOL_CALLS + 1 } }, TOOL_CALLS);
  await check('steps', { b: { calls: STEPS, minPrompt: 2 * STEPS - 1 } }, 0);
  await check(
    'composite',
    { 'c-outer': { calls: COMPOSITE_CALLS + 1 }, 'c-inner': { calls: COMPOSITE_CALLS } },
    0,
  );
  // (f): every earlier step left its user message, the tool call, its result and the answer.
  await check('toolSteps', { f: { calls: 2 * STEPS, minPrompt: 4 * STEPS - 1 } }, STEPS);
}
