import { StudioRequestError } from '../../host/studio-request-error.js';
import { safeDecode } from './send-json.js';

/**
 * The run id a route's path names (the first group of `pattern`, percent-encoded), decoded.
 *
 * @throws {StudioRequestError} `studio-request-invalid` (400) when it is not valid
 *   percent-encoding.
 */
export function runIdIn(pattern: RegExp, path: string): string {
  return idInPath([pattern], path, 'run id');
}

/**
 * The id a route's path names (the first group of the first of `patterns` that matches,
 * percent-encoded), decoded; `what` names it in the error (`run id`, `workflow id`).
 *
 * @throws {StudioRequestError} `studio-request-invalid` (400) when it is not valid
 *   percent-encoding.
 */
export function idInPath(patterns: readonly RegExp[], path: string, what: string): string {
  const encoded = patterns.map((pattern) => pattern.exec(path)).find(Boolean)?.[1] ?? '';
  const id = safeDecode(encoded);
  if (id === undefined)
    throw new StudioRequestError(
      'studio-request-invalid',
      `june: the ${what} ${JSON.stringify(encoded.slice(0, 80))} is not valid percent-encoding; encode it with encodeURIComponent.`,
      400,
    );
  return id;
}
