import { WorkflowError } from '../errors/index.js';

/**
 * Parses `--props`: a JSON object whose fields become the root component's props.
 *
 * @param text - the flag's value, e.g. `'{"version":"1.2.0"}'`.
 * @param flag - the flag in messages; for `--secret-props` the parser's message (which may
 *   quote the text) is left out. @default '--props'
 * @returns the props object.
 * @throws {WorkflowError} `cli-props-invalid` when the text is not JSON, or is JSON but not an
 *   object (an array, a string, `null`...).
 * @example
 * ```ts
 * parseProps('{"version":"1.2.0"}'); // { version: '1.2.0' }
 * ```
 */
export function parseProps(text: string, flag = '--props'): Record<string, unknown> {
  const hint = `Pass a JSON object, e.g. ${flag} '{"version":"1.2.0"}'.`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new WorkflowError(
      'cli-props-invalid',
      `june: ${flag} is not valid JSON${flag === '--secret-props' ? '' : ` (${(error as Error).message})`}. ${hint}`,
      flag === '--secret-props' ? {} : { cause: error },
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    throw new WorkflowError(
      'cli-props-invalid',
      `june: ${flag} must be a JSON object of props, got ${got}. ${hint}`,
    );
  }
  return value as Record<string, unknown>;
}
