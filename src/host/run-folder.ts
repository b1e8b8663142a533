import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { SystemError } from '../errors/june-error.js';

/**
 * Files of a run folder (`<runs>/<runId>/`) as Studio and `june run --approve studio` trust
 * them. Whoever can write into a run folder can answer its approvals and name how it is
 * resumed, so a folder counts only when it is a real directory (not a symbolic link), owned
 * by the user of this process and not writable by group or others; a file in it counts only
 * when it is a regular file (not a link, a device or a pipe) with the same owner and mode,
 * and no larger than the reader's limit in bytes. (A clone of a repository gives its files to
 * whoever cloned it: ownership alone says nothing of who wrote them, which is why nothing in
 * a run folder is ever run as a command; see `resume-run.ts`.)
 */

/** How large a file of a run folder may be, in bytes. */
export const RUN_FILE_LIMITS = {
  'process.json': 64 * 1024,
  'answers.jsonl': 4 * 1024 * 1024,
  'journal.jsonl': 256 * 1024 * 1024,
} as const;

/** A file of a run folder that June reads. */
export type RunFileName = keyof typeof RUN_FILE_LIMITS;

/**
 * The error for a run folder, or a file in it, that June does not trust (code
 * `run-folder-unsafe`); its message names the path, says what is wrong and how to fix it.
 */
export function runFolderUnsafe(path: string, problem: string): SystemError {
  return new SystemError(
    'run-folder-unsafe',
    `june: ${path} ${problem}; June reads answers and resume details only from run folders and files that you own and that no one else can write to. Check who wrote it, then fix it (chmod go-w, or remove it) or answer with \`june run <file> --resume <runId>\` in a terminal.`,
  );
}

/**
 * Why the run folder cannot be trusted (a sentence fragment), or undefined when it can or
 * does not exist yet. Never throws.
 */
export async function runFolderProblem(folder: string): Promise<string | undefined> {
  let info: Stats;
  try {
    info = await lstat(folder);
  } catch {
    return undefined;
  }
  if (info.isSymbolicLink()) return 'is a symbolic link, not a run folder June made';
  if (!info.isDirectory()) return 'is not a folder';
  return ownerProblem(info, 'folder');
}

/**
 * Throws unless the run folder can be trusted (or does not exist yet).
 * @throws {SystemError} `run-folder-unsafe`
 */
export async function checkRunFolder(folder: string): Promise<void> {
  const problem = await runFolderProblem(folder);
  if (problem) throw runFolderUnsafe(folder, problem);
}

/**
 * The text of one file of a run folder, read at most up to its limit in bytes
 * ({@link RUN_FILE_LIMITS}); undefined when the folder or the file does not exist. The file
 * is opened without following a link and checked on the open descriptor, so it cannot be
 * swapped between the check and the read.
 *
 * @throws {SystemError} `run-folder-unsafe` when the folder or the file is not to be trusted
 *   (see the module's rules) or the file is over its limit
 */
export async function readRunFile(folder: string, name: RunFileName): Promise<string | undefined> {
  await checkRunFolder(folder);
  const path = join(folder, name);
  let file;
  try {
    file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code === 'ELOOP') throw runFolderUnsafe(path, 'is a symbolic link');
    throw error;
  }
  try {
    const info = await file.stat();
    if (!info.isFile()) throw runFolderUnsafe(path, 'is not a regular file');
    const problem = ownerProblem(info, 'file');
    if (problem) throw runFolderUnsafe(path, problem);
    const limit = RUN_FILE_LIMITS[name];
    if (info.size > limit)
      throw runFolderUnsafe(
        path,
        `holds ${info.size.toLocaleString('en-US')} bytes, more than the ${limit.toLocaleString('en-US')} such a file may hold`,
      );
    const buffer = Buffer.alloc(info.size);
    const { bytesRead } = await file.read(buffer, 0, info.size, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await file.close();
  }
}

/**
 * Writes (`mode: 'replace'`) or appends to one file of a run folder, making the folder
 * (mode 0700) when it does not exist. Neither the folder nor the file is written through a
 * symbolic link; a new file gets mode 0600.
 *
 * @throws {SystemError} `run-folder-unsafe` when the folder or the file is not to be trusted
 */
export async function writeRunFile(
  folder: string,
  name: RunFileName,
  text: string,
  mode: 'replace' | 'append',
): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await checkRunFolder(folder);
  const path = join(folder, name);
  const flags =
    constants.O_WRONLY |
    constants.O_CREAT |
    constants.O_NOFOLLOW |
    (mode === 'append' ? constants.O_APPEND : 0);
  let file;
  try {
    file = await open(path, flags, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw runFolderUnsafe(path, 'is a symbolic link');
    throw error;
  }
  try {
    const info = await file.stat();
    const problem = info.isFile() ? ownerProblem(info, 'file') : 'is not a regular file';
    if (problem) throw runFolderUnsafe(path, problem);
    if (mode === 'replace') await file.truncate(0);
    await file.writeFile(text);
  } finally {
    await file.close();
  }
}

/** Why a folder or file's owner or mode is not to be trusted, or undefined. */
function ownerProblem(info: Stats, what: 'folder' | 'file'): string | undefined {
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid)
    return `is a ${what} owned by another user (uid ${info.uid}, not ${uid})`;
  if ((info.mode & 0o022) !== 0)
    return `is a ${what} that others can write to (mode ${(info.mode & 0o777).toString(8)})`;
  return undefined;
}
