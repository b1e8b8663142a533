import { randomFillSync } from 'node:crypto';

/**
 * What a run id may be: 1 to 128 letters, digits, `.`, `_` and `-`, not starting with `.` or
 * `-`, so it is a file name in every store (`.june/runs/<runId>.json`, `<runId>/journal.jsonl`,
 * well under the usual 255-byte limit) and never `.`, `..` or an option. The one pattern the
 * journal's file store, Studio and the web chat handler check. Ids {@link newRunId} makes
 * (28 characters) and DBOS workflow ids (UUIDs, 36) fit.
 */
export const RUN_ID_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/**
 * Whether a value is a run id ({@link RUN_ID_PATTERN}).
 *
 * @example
 * ```ts
 * isRunId('20261130-120301-3fa94c1e27b0'); // true
 * isRunId('../etc'); // false
 * ```
 */
export function isRunId(value: unknown): value is string {
  return typeof value === 'string' && RUN_ID_PATTERN.test(value);
}

/**
 * A new run id: the UTC time to the second, then 48 random bits as hex
 * (`20261130-120301-3fa94c1e27b0`), so ids sort by start time and two runs do not get one id
 * in practice (a million runs in one second: a chance of about 2 in a million). A store's
 * atomic create catches the rest (the journal's `journal-exists`).
 *
 * @example
 * ```ts
 * const runId = options.runId ?? newRunId();
 * ```
 */
export function newRunId(): string {
  return `${secondText(Math.floor(Date.now() / 1000))}-${randomHex(6)}`;
}

/** The second the last id was made in (s since the epoch) and its text (`20261130-120301`). */
let lastSecond = Number.NaN;
let lastSecondText = '';

function secondText(second: number): string {
  if (second !== lastSecond) {
    lastSecond = second;
    const iso = new Date(second * 1000).toISOString();
    lastSecondText = iso.replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  }
  return lastSecondText;
}

/**
 * Random bytes are read from the system 4 KiB at a time and handed out in slices: one
 * `randomBytes(6)` per run cost a call into the thread pool and showed in the profile of
 * short runs. Each byte is used once.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

/** `bytes` random bytes as hex (cryptographically random, each pool byte used once). */
function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += bytes;
  return pool.toString('hex', used - bytes, used);
}
