import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { WorkflowError } from '../errors/index.js';
import { scriptLabel, validateScript, type ModelScript } from './script-format.js';

/**
 * Reads a model script from a JSON file and validates it.
 *
 * @param path - the file, absolute or relative to the current directory.
 * @returns the script, checked against the format in docs/offline-scripts.md.
 * @throws {WorkflowError} `script-unreadable` when the file cannot be read;
 *   `script-invalid` when it is not JSON or a field is wrong (the message names the file and
 *   the JSON path of the field, e.g. `$.steps.release[1].toolCalls[0].tool`).
 * @example
 * ```ts
 * import { loadScript, scriptedModel } from 'june/testing';
 * const model = scriptedModel(loadScript('test/fixtures/scripts/release.json'));
 * ```
 */
export function loadScript(path: string): ModelScript {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new WorkflowError(
      'script-unreadable',
      `june: cannot read ${scriptLabel(path)} (${resolve(path)}): ${reason}. ` +
        'Check the path; a relative path is read from the current directory.',
      { cause: error },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new WorkflowError(
      'script-invalid',
      `june: ${scriptLabel(path)} is not valid JSON: ${(error as Error).message}. Fix the file.`,
      { cause: error },
    );
  }
  return validateScript(value, path);
}
