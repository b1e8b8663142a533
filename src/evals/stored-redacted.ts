import type { Redactor } from '../redaction/redactor.js';

/**
 * Makes `value` (a case's input, an object evalite keeps and later writes out as JSON) store
 * as its redacted copy: a `toJSON` that is not enumerable, so the task, the scorers and the
 * columns still read the real fields and `JSON.stringify` (evalite's results, database and
 * `--outputPath` file) writes `[redacted]` in their place. A frozen or non-plain value is left
 * as it is. Returns `value`.
 *
 * This relies on what evalite (0.19) does with a case's input: it keeps the object it was
 * given and writes it with `JSON.stringify` once the task is done (`structuredClone` skips a
 * property that is not enumerable). test/examples/evals.test.ts reads evalite's stored bytes
 * to hold it to that.
 *
 * @example
 * ```ts
 * storedRedacted(input, redactor);
 * JSON.stringify(input); // '{"id":"patch","props":{"token":"[redacted]"}}'
 * input.props.token; // the real token
 * ```
 */
export function storedRedacted<T>(value: T, redactor: Redactor): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  Object.defineProperty(value, 'toJSON', {
    value: () => redactor.value({ ...value }),
    configurable: true,
    writable: true,
    enumerable: false,
  });
  return value;
}
