import type { DbosAnswerResult } from './dbos-answer.js';

/**
 * The `june:` sentence for an answer over the database that was not applied: the answer that
 * stands (approved or denied, why, through what, by whom, when), or the requests the run
 * waits for instead.
 *
 * @example
 * ```ts
 * notAppliedText('r1', result, { approved: true });
 * // june: the approval request "entry#2.0" of run r1 was answered already: denied (not now) through database by ana at 2026-12-02T04:50:01.123Z. That answer stands; this approval was not applied.
 * ```
 */
export function notAppliedText(
  runId: string,
  result: Exclude<DbosAnswerResult, { status: 'applied' }>,
  given: { approved: boolean },
): string {
  if (result.status === 'unknown') {
    const waits = result.pending.length
      ? `it waits for ${result.pending.map((r) => `"${r.id}" (${r.tool})`).join(', ')}`
      : 'it waits for none';
    return `june: the run ${runId} has no approval request "${result.ref}" waiting; ${waits}. See june runs.`;
  }
  if (result.status === 'withdrawn')
    return `june: the approval request "${result.request.id}" of run ${runId} stopped waiting unanswered (${result.reason}); this ${given.approved ? 'approval' : 'denial'} was not applied.`;
  const { answer } = result;
  const why = answer.reason !== undefined ? ` (${answer.reason})` : '';
  const by = answer.answeredBy !== undefined ? ` by ${answer.answeredBy}` : '';
  return `june: the approval request "${result.request.id}" of run ${runId} was answered already: ${answer.approved ? 'approved' : 'denied'}${why} through ${answer.source}${by} at ${answer.answeredAt}. That answer stands; this ${given.approved ? 'approval' : 'denial'} was not applied.`;
}
