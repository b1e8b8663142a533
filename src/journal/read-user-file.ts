import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import type { JuneError } from '../errors/index.js';
import { fileProblem } from './file-problem.js';

/** A file a user named, read as text, with the name to show in messages about it. */
export interface UserFile {
  /** The file's text (UTF-8). */
  text: string;
  /** The path from the current directory (as given when it is outside it). */
  shown: string;
}

/**
 * Reads a file the user named (a journal, a dataset, eval results), or throws the error
 * `unreadable` makes of why not.
 *
 * @param path - absolute, or relative to the current directory.
 * @param unreadable - the error to throw, from the path as messages show it (`shown`), why
 *   it could not be read in words (`there is no such file`, see `fileProblem`) and the
 *   system's error (its `cause`).
 * @throws {JuneError} what `unreadable` returns, when the file cannot be read.
 * @example
 * ```ts
 * const { text } = await readUserFile('cases.jsonl', (shown, problem, cause) =>
 *   new WorkflowError('eval-dataset-unreadable', `june: cannot read the dataset ${shown}: ${problem}.`, { cause }));
 * ```
 */
export async function readUserFile(
  path: string,
  unreadable: (shown: string, problem: string, cause: unknown) => JuneError,
): Promise<UserFile> {
  const shown = relative(process.cwd(), resolve(path)) || path;
  try {
    return { text: await readFile(path, 'utf8'), shown };
  } catch (error) {
    throw unreadable(shown, fileProblem(error), error);
  }
}
