import { join } from 'node:path';
import type { Trace, TraceStatus } from '../trace/trace-node.js';
import { readTraceFile } from './read-trace-file.js';
import { runFolder } from './run-answers.js';
import { countWaiting } from './waiting-approvals.js';

/**
 * A run's state in a runs folder as the runs list shows it: its trace's status, made
 * `waiting` when it has not ended (or stopped aborted) with approvals still unanswered.
 * `undefined` when the folder has no readable trace of that run.
 *
 * @example
 * ```ts
 * await runStatusIn('.june/runs', '20261202-101500-ab12'); // 'waiting'
 * ```
 */
export async function runStatusIn(
  runsDir: string,
  runId: string,
): Promise<TraceStatus | undefined> {
  const content = await readTraceFile(join(runsDir, `${runId}.json`));
  if (!('trace' in content)) return undefined;
  return (await listedStatus(content.trace, runFolder(runsDir, runId))).status;
}

/**
 * The state the runs list gives a trace of a runs folder, and how many approvals it waits
 * for: a run that has not ended, or stopped aborted, with approvals its journal (in `folder`)
 * holds unanswered is `waiting`.
 */
export async function listedStatus(
  trace: Trace,
  folder: string,
): Promise<{ status: TraceStatus; waiting: number }> {
  const { status } = trace;
  if (status === 'succeeded' || status === 'failed') return { status, waiting: 0 };
  const waiting = await countWaiting(trace, folder).catch(() => 0);
  return waiting > 0 ? { status: 'waiting', waiting } : { status, waiting: 0 };
}
