import type { Stats } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import { join, relative, isAbsolute } from 'node:path';

/** What {@link resolveInside} found: a file to read, a link that leads out of the folder, or nothing. */
export type ResolvedFile = { path: string; info: Stats } | { outside: Stats } | undefined;

/** Why a link out of the runs folder is not read, as Studio lists it. */
export const OUTSIDE_REASON =
  'a link to a file outside the runs folder; Studio reads only the files inside it';

/**
 * Finds the file `name` in `dir` without leaving `dir`: a plain file is itself; a symbolic
 * link is followed only when its target (all links resolved) is inside `dir` (itself
 * resolved), and then the target's real path is what to read, so the link cannot be swapped
 * between the check and the read. `undefined` when there is no such file, it is not a regular
 * file, or the link leads nowhere. Never throws.
 *
 * @example
 * ```ts
 * const found = await resolveInside('.june/runs', 'x.json');
 * if (found && 'path' in found) console.log(await readFile(found.path, 'utf8'));
 * ```
 */
export async function resolveInside(dir: string, name: string): Promise<ResolvedFile> {
  const path = join(dir, name);
  try {
    const link = await lstat(path);
    if (!link.isSymbolicLink()) return link.isFile() ? { path, info: link } : undefined;
    const [real, base] = await Promise.all([realpath(path), realpath(dir)]);
    const within = relative(base, real);
    if (within === '' || within.startsWith('..') || isAbsolute(within)) return { outside: link };
    const info = await stat(real);
    return info.isFile() ? { path: real, info } : undefined;
  } catch {
    return undefined;
  }
}
