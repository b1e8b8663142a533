import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import type { JuneErrorCode } from '../errors/june-error-code.js';
import { WorkflowError } from '../errors/index.js';
import { fileProblem } from './file-problem.js';

/** A file a user named, read as text, with the name to show in messages about it. */
export interface UserFile {
  /** The file's text (UTF-8). */
  text: string;
  /** The path from the current directory (as given when it is outside it). */
  shown: string;
}

/**
 * Reads a file the user named (a journal, a dataset, eval results), or says why not in one
 * `june:` line: `june: cannot read the <what> <path>: <why>. <advice>`.
 *
 * @param path - absolute, or relative to the current directory.
 * @param what - what the file is, in words (`journal`, `dataset`).
 * @param code - the error's code.
 * @param advice - what to do, one sentence; `shown` is the path as the message names it.
 * @throws {WorkflowError} `code` when the file cannot be read (missing, a directory, no permission).
 * @example
 * ```ts
 * const { text, shown } = await readUserFile('cases.jsonl', 'dataset', 'eval-dataset-unreadable', () => 'Check the path.');
 * ```
 */
export async function readUserFile(
  path: string,
  what: string,
  code: JuneErrorCode,
  advice: (shown: string) => string,
): Promise<UserFile> {
  const shown = relative(process.cwd(), resolve(path)) || path;
  try {
    return { text: await readFile(path, 'utf8'), shown };
  } catch (error) {
    throw new WorkflowError(
      code,
      `june: cannot read the ${what} ${shown}: ${fileProblem(error)}. ${advice(shown)}`,
      { cause: error },
    );
  }
}
