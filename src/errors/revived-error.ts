import type { ErrorData } from './error-data.js';
import type { JuneErrorCode } from './june-error-code.js';
import { errorOfBlame } from './june-error.js';

/**
 * An error made again from its record ({@link ErrorData} kept with its blame, as a journal or
 * a database row keeps it): a `JuneError` of the subclass for its blame when it had a code
 * (with the same code, blame, name and message), else an `Error` with the same name and
 * message. `errorData` of the result equals the record (without the blame), so a replayed
 * failure shows as the recorded one did.
 *
 * @example
 * ```ts
 * throw revivedError({ name: 'Error', message: 'no such file' });
 * ```
 */
export function revivedError(recorded: ErrorData): Error {
  if (recorded.code !== undefined) {
    const code = recorded.code as JuneErrorCode; // as recorded, maybe by another June version
    const error = errorOfBlame(recorded.blame ?? 'system', code, recorded.message);
    if (recorded.name)
      Object.defineProperty(error, 'name', {
        value: recorded.name,
        configurable: true,
        writable: true,
      });
    return error;
  }
  const error = new Error(recorded.message);
  error.name = recorded.name;
  return error;
}
