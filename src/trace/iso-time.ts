/** The minute of the last time written, in minutes since the epoch, and its ISO text up to the seconds. */
let minute = Number.NaN;
let minutePrefix = '';

/**
 * `new Date(ms).toISOString()` for a time in ms since the epoch, as a trace writes
 * `startedAt`/`endedAt` (`2026-11-30T21:04:05.123Z`). A run's nodes open and close many to
 * the minute, so the text up to the minute is kept and only the seconds are written anew.
 *
 * @throws {RangeError} for a time no `Date` can hold (as `toISOString` does).
 * @example
 * ```ts
 * isoTime(0); // '1970-01-01T00:00:00.000Z'
 * ```
 */
export function isoTime(ms: number): string {
  if (ms === lastMs) return lastIso;
  lastMs = ms;
  lastIso = minuteIso(ms);
  return lastIso;
}

/** The last time written (ms) and its text: events come many to the millisecond, and share it. */
let lastMs = Number.NaN;
let lastIso = '';

function minuteIso(ms: number): string {
  const at = Math.floor(ms / 60_000);
  if (at !== minute || !Number.isInteger(ms)) {
    const iso = new Date(ms).toISOString();
    if (!Number.isInteger(ms) || iso.length !== 24) return iso;
    minute = at;
    minutePrefix = iso.slice(0, 17);
    return iso;
  }
  const inMinute = ms - at * 60_000;
  const seconds = Math.floor(inMinute / 1000);
  const millis = inMinute - seconds * 1000;
  return `${minutePrefix}${seconds < 10 ? '0' : ''}${seconds}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}
