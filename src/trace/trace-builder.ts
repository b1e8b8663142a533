import type { TraceError } from './trace-node.js';
import { errorData } from '../errors/error-data.js';

/** Tool inputs and outputs, results and messages in a trace: their one JSON form (see `jsonForm`). */
export { plainJson } from '../json/json-form.js';

/** An error as plain data for a trace (see {@link errorData}: credentials removed, no blame). */
export function traceError(error: unknown): TraceError {
  const { blame: _blame, ...data } = errorData(error);
  return data;
}
