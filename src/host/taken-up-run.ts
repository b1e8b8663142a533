import type { RunHandle } from '../interpreter/run.js';
import type { JournalRecord } from '../journal/journal-record.js';
import { runState } from './run-state.js';
import { approvalsInTrace } from './waiting-approvals.js';

/**
 * How a run ended as its journal says (its last `run-finish`, unless a `resume` came after
 * it); `undefined` when it did not end, or was taken up since.
 */
export function endedAs(
  records: readonly JournalRecord[],
): 'succeeded' | 'failed' | 'aborted' | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i]!;
    if (record.type === 'resume') return undefined;
    if (record.type === 'run-finish') return record.status;
  }
  return undefined;
}

/**
 * Resolves once a run taken up from `records` (its journal) has replayed what they hold
 * and settled: it ended, or it waits for a call the journal has no answer for. The replay
 * asks again about each call the journal answered and answers it at once, so a call waiting
 * for a moment is not yet a wait.
 */
export async function settledAfterReplay(
  handle: RunHandle,
  records: readonly JournalRecord[],
): Promise<void> {
  const answered = new Set(
    records.flatMap((record) =>
      record.type === 'approval-answer'
        ? [[handle.runId, ...(record.calls ?? []), record.call].join('/')]
        : [],
    ),
  );
  for await (const _ of handle.events) {
    const trace = handle.trace();
    const state = runState(trace);
    if (state === 'running') continue;
    if (state !== 'waiting') return;
    const waiting = approvalsInTrace(trace).filter((call) => call.status === 'pending');
    if (waiting.some((call) => !answered.has(call.key))) return;
  }
}
