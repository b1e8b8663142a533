import { lstat, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where a run of the runs folder `runsDir` keeps the model script it was started with:
 * `<runsDir>/<runId>/script.json`. `june run --script`, `june fork` and the hosts keep it
 * there, so that a resume or a fork of the run is answered by the same script.
 */
export function keptScriptPath(runsDir: string, runId: string): string {
  return join(runsDir, runId, 'script.json');
}

/**
 * The path of the model script the run `runId` keeps ({@link keptScriptPath}) when it keeps
 * one (a regular file, not a link), else undefined. Never throws.
 */
export async function keptScriptFile(runsDir: string, runId: string): Promise<string | undefined> {
  const path = keptScriptPath(runsDir, runId);
  const info = await lstat(path).catch(() => undefined);
  return info?.isFile() ? path : undefined;
}

/**
 * Keeps a copy of the model script file `script` as the run's ({@link keptScriptPath}, mode
 * 0600, in a folder of mode 0700), unless the run keeps one already; with `replace` (a
 * resume given a script of its own: the given script wins, then and at every later resume),
 * in place of the one it keeps, swapped in whole.
 *
 * @returns true when this call kept it, false when the run kept one already.
 * @throws what reading `script` or writing the copy throws.
 */
export async function keepScriptFile(
  runsDir: string,
  runId: string,
  script: string,
  { replace = false }: { replace?: boolean } = {},
): Promise<boolean> {
  const text = await readFile(script, 'utf8');
  await mkdir(join(runsDir, runId), { recursive: true, mode: 0o700 });
  const kept = keptScriptPath(runsDir, runId);
  if (replace && (await keptScriptFile(runsDir, runId)) !== undefined) {
    const next = `${kept}.${process.pid}.next`;
    await writeFile(next, text, { mode: 0o600 });
    await rename(next, kept);
    return false;
  }
  try {
    await writeFile(keptScriptPath(runsDir, runId), text, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
