import type { TraceStatus } from '../trace/trace-node.js';

/**
 * What Studio offers for a workflow's last run, by the state the runs list gives it:
 * - `rerun`: it ended succeeded, so its recording answers every model call it made: Re-run
 *   replays it (model answers and tool results from the recording, nothing runs outside);
 * - `answer`: it waits for a person (or its process stopped at an approval): answer it, or
 *   resume it, on its page;
 * - `wait`: it is still running;
 * - `fresh`: it ended aborted or failed, so its recording stops partway: start a fresh run
 *   (a script, or the provider) instead.
 *
 * `why` is the sentence the page shows, and the 409 `studio-rerun-incomplete` Studio answers a
 * replay start of such a run with (see {@link rerunRefusal}).
 *
 * @example
 * ```ts
 * rerunOffer('20261202-101500-ab12', 'aborted').kind; // 'fresh'
 * ```
 */
export type RerunOffer = { kind: 'rerun' } | { kind: 'answer' | 'wait' | 'fresh'; why: string };

/**
 * The offer for a run in `status` (see {@link RerunOffer}); `pendingApprovals` counts the
 * calls a run stopped at (`aborted`) still has unanswered: answering one resumes it.
 */
export function rerunOffer(runId: string, status: TraceStatus, pendingApprovals = 0): RerunOffer {
  const run = `Run ${runId}`;
  if (status === 'aborted' && pendingApprovals > 0)
    return {
      kind: 'answer',
      why: `${run} stopped while a call waited for an answer: answer it on its page and it resumes. Re-run replays only a run that ended succeeded.`,
    };
  switch (status) {
    case 'succeeded':
      return { kind: 'rerun' };
    case 'waiting':
      return {
        kind: 'answer',
        why: `${run} waits for an answer, so its recording is not complete: answer it or resume it on its page. Re-run replays only a run that ended succeeded.`,
      };
    case 'running':
      return {
        kind: 'wait',
        why: `${run} is still running, so its recording is not complete yet. Re-run replays only a run that ended succeeded.`,
      };
    default:
      return {
        kind: 'fresh',
        why: `${run} ended ${status}, so its recording stops partway: a replay would run out of model answers. Start a fresh run with a script or the provider instead.`,
      };
  }
}

/**
 * The `june:` sentence that refuses a replay start of a run whose recording is not
 * complete, or `undefined` when it may be replayed (it ended succeeded).
 */
export function rerunRefusal(
  runId: string,
  status: TraceStatus,
  pendingApprovals = 0,
): string | undefined {
  const offer = rerunOffer(runId, status, pendingApprovals);
  return offer.kind === 'rerun' ? undefined : `june: ${offer.why}`;
}
