import { readdir } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';

/** How a model script file's name ends (`june/testing`'s scripts: `--script`, the chat's `?script=`). */
const SCRIPT_FILE = /\.(script|chat)\.json$/;

/**
 * The model script files in the folder of the workflow `id` (`release.script.json`,
 * `support.chat.json`: names ending in `.script.json` or `.chat.json`), as paths from the
 * project root with `/` separators, sorted; none when the folder cannot be read. The
 * workbench proposes one of them, so it never proposes a file that does not exist.
 *
 * @param root the project root (absolute)
 * @param id the workflow's id, its path from `root` (`workflows/support.tsx`)
 * @example
 * ```ts
 * await scriptFilesNear('/home/ana/shop', 'workflows/support.tsx');
 * // ['workflows/support.chat.json']
 * ```
 */
export async function scriptFilesNear(root: string, id: string): Promise<string[]> {
  const folder = posix.dirname(id);
  let found: Array<{ name: string; isFile(): boolean }>;
  try {
    found = await readdir(dirname(join(root, id)), { withFileTypes: true });
  } catch {
    return [];
  }
  return found
    .filter((entry) => entry.isFile() && SCRIPT_FILE.test(entry.name))
    .map((entry) => (folder === '.' ? entry.name : `${folder}/${entry.name}`))
    .sort();
}
