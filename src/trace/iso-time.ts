let lastMs = Number.NaN;
let lastIso = '';

/**
 * `new Date(ms).toISOString()` for a time in ms since the epoch, as a trace writes
 * `startedAt`/`endedAt`. The last answer is kept: a run's events come many to the
 * millisecond, so most nodes open and close without making a `Date`.
 *
 * @throws {RangeError} for a time no `Date` can hold (as `toISOString` does).
 * @example
 * ```ts
 * isoTime(0); // '1970-01-01T00:00:00.000Z'
 * ```
 */
export function isoTime(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
