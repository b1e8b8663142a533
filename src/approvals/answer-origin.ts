import type { AnswerOrigin, ApprovalSourceName, GivenAnswer } from './given-answer.js';

/**
 * Where an answer came from, as records keep it: the source's name, `answeredBy` when the
 * source named someone (an empty name counts as none), and `answeredAt` as ISO 8601 (the
 * given time when it is a valid one, else now).
 *
 * @example
 * ```ts
 * answerOrigin({ approved: true, answeredBy: 'ana' }, 'slack', false);
 * // { source: 'slack', answeredBy: 'ana', answeredAt: '2026-11-30T12:03:01.000Z', automatic: false }
 * ```
 */
export function answerOrigin(
  given: Pick<GivenAnswer, 'answeredBy' | 'answeredAt'>,
  source: ApprovalSourceName,
  automatic: boolean,
): AnswerOrigin {
  const by = typeof given.answeredBy === 'string' ? given.answeredBy.trim() : '';
  return {
    source,
    ...(by !== '' ? { answeredBy: by } : {}),
    answeredAt: isoTime(given.answeredAt),
    automatic,
  };
}

/** `at` as ISO 8601 when it is a valid time (a `Date`, or a string `Date.parse` reads), else now. */
function isoTime(at: string | Date | undefined): string {
  const ms = at instanceof Date ? at.getTime() : typeof at === 'string' ? Date.parse(at) : NaN;
  return new Date(Number.isNaN(ms) ? Date.now() : ms).toISOString();
}

/**
 * The origin fields of a record that may be older than them (a journal or trace written
 * before answers recorded their source): those present, and nothing for those absent.
 */
export function recordedOrigin(record: {
  source?: string;
  answeredBy?: string;
  answeredAt?: string;
}): Partial<Omit<AnswerOrigin, 'automatic'>> {
  return {
    ...(record.source !== undefined ? { source: record.source } : {}),
    ...(record.answeredBy !== undefined ? { answeredBy: record.answeredBy } : {}),
    ...(record.answeredAt !== undefined ? { answeredAt: record.answeredAt } : {}),
  };
}
