import { join } from 'node:path';
import { readTraceFile } from './read-trace-file.js';
import { runFolder } from './run-answers.js';
import { runState, type RunState } from './run-state.js';
import { countWaiting } from './waiting-approvals.js';

/**
 * A run's state in a runs folder as the runs list shows it ({@link runState} of its trace),
 * with, for a run stopped while calls waited (`aborted`), how many of them its journal holds
 * unanswered (an answer to one resumes it). `undefined` when the folder has no readable trace
 * of that run.
 *
 * @example
 * ```ts
 * await runStatusIn('.june/runs', '20261202-101500-ab12'); // { state: 'aborted', pendingApprovals: 1 }
 * ```
 */
export async function runStatusIn(
  runsDir: string,
  runId: string,
): Promise<{ state: RunState; pendingApprovals: number } | undefined> {
  const content = await readTraceFile(join(runsDir, `${runId}.json`));
  if (!('trace' in content)) return undefined;
  const state = runState(content.trace);
  if (state !== 'aborted') return { state, pendingApprovals: 0 };
  const pending = await countWaiting(content.trace, runFolder(runsDir, runId)).catch(() => 0);
  return { state, pendingApprovals: pending };
}
