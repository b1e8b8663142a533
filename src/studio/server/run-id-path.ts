import { StudioRequestError } from '../../host/studio-request-error.js';
import { safeDecode } from './send-json.js';

/**
 * The run id a route's path names (the first group of `pattern`, percent-encoded), decoded.
 *
 * @throws {StudioRequestError} `studio-request-invalid` (400) when it is not valid
 *   percent-encoding.
 */
export function runIdIn(pattern: RegExp, path: string): string {
  const encoded = pattern.exec(path)?.[1] ?? '';
  const runId = safeDecode(encoded);
  if (runId === undefined)
    throw new StudioRequestError(
      'studio-request-invalid',
      `june: the run id ${JSON.stringify(encoded.slice(0, 80))} is not valid percent-encoding; encode it with encodeURIComponent.`,
      400,
    );
  return runId;
}
