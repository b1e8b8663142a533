/**
 * The message of a caught value, for a sentence that quotes it: an `Error`'s `message`, any
 * other thrown value as `String(value)` (`throw 'busy'` gives `busy`, `throw undefined` gives
 * `undefined`). For a record of an error (trace, event, journal) use `errorData`, which also
 * keeps the name and code and removes credentials.
 *
 * @example
 * ```ts
 * errorMessage(new Error('disk full')); // 'disk full'
 * errorMessage(42); // '42'
 * ```
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
