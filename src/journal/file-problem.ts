import { errorMessage } from '../errors/error-message.js';

/**
 * Why a file could not be read, in words: `there is no such file`, `it is a directory, not
 * a file`, `permission denied`, else the system's code or message.
 *
 * @example
 * ```ts
 * fileProblem(Object.assign(new Error('EISDIR: illegal operation on a directory, read'), { code: 'EISDIR' })); // 'it is a directory, not a file'
 * ```
 */
export function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'there is no such file';
    case 'EISDIR':
      return 'it is a directory, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return code ?? errorMessage(error);
  }
}
