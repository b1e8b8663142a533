import { userInfo } from 'node:os';

/**
 * The name of the user this process runs as (`os.userInfo().username`), which the terminal
 * and Studio record as who answered an approval; `undefined` when the system has none to
 * give (a container's anonymous uid).
 *
 * @example
 * ```ts
 * handle.approve(id, { answeredBy: localUser(), source: 'terminal' });
 * ```
 */
export function localUser(): string | undefined {
  try {
    const name = userInfo().username;
    return name === '' ? undefined : name;
  } catch {
    return undefined;
  }
}
