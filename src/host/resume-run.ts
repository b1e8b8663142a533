import { spawn } from 'node:child_process';
import { closeSync, constants, existsSync, openSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resumeFlagWords } from './resume-details.js';
import { resumeSealHolds } from './resume-seal.js';
import { writeRunProcess, type RunProcess } from './run-answers.js';

const WORKFLOW_EXTENSIONS = new Set(['.tsx', '.ts', '.jsx', '.js', '.mts', '.mjs', '.cts', '.cjs']);

/**
 * Why Studio will not resume this stopped run itself (a sentence fragment), or undefined when
 * it will. Studio resumes a run only from resume details (`process.json`) that:
 * - carry a seal made under this user's key (`resume-seal.ts`): details that came with a
 *   cloned repository or were written by anyone else never do;
 * - name a folder (`cwd`) whose `.june/runs` is the runs folder Studio shows, and a workflow
 *   file (one of the JavaScript or TypeScript extensions) inside that folder.
 * Never throws.
 */
export async function resumeProblem(
  runsDir: string,
  runId: string,
  record: RunProcess,
): Promise<string | undefined> {
  if (!(await resumeSealHolds(runId, record.resume, record.seal)))
    return 'its process.json was not written by a june run of yours on this machine';
  const { workflow, cwd } = record.resume;
  try {
    const [runs, home, file] = await Promise.all([
      realpath(runsDir),
      realpath(cwd),
      realpath(workflow),
    ]);
    if (runs !== (await realpath(join(home, '.june', 'runs'))))
      return `the folder it was started in (${cwd}) does not hold this runs folder`;
    if (!inside(home, file) || !WORKFLOW_EXTENSIONS.has(extname(file)))
      return `its workflow (${workflow}) is not a workflow file inside ${cwd}`;
    if (!(await stat(file)).isFile()) return `its workflow (${workflow}) is not a file`;
  } catch {
    return `its workflow (${workflow}) or its folder (${cwd}) is gone`;
  }
  return undefined;
}

/**
 * Starts `june run <workflow> --resume <runId> --approve studio <flags>` for a stopped run,
 * with this Node and the `june` command Studio itself belongs to, in the run's folder,
 * detached (it outlives Studio), its output appended to `<folder>/resume.log`; then marks the
 * new process in `process.json` at once, so a second answer given meanwhile goes to it
 * rather than starting another. The command is built here from checked values
 * ({@link resumeProblem} must have passed); nothing read from disk is run as a command.
 */
export async function resumeRun(folder: string, runId: string, record: RunProcess): Promise<void> {
  const { workflow, cwd, flags } = record.resume;
  const args = [
    juneBin(),
    'run',
    workflow,
    `--resume=${runId}`,
    '--approve=studio',
    ...resumeFlagWords(flags).map(([flag, value]) =>
      value === undefined ? flag : `${flag}=${value}`,
    ),
  ];
  const log = openSync(
    join(folder, 'resume.log'),
    constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    const child = spawn(process.execPath, args, {
      cwd,
      detached: true,
      stdio: ['ignore', log, log],
    });
    child.on('error', () => {}); // a process that cannot start leaves the run stopped, its answer recorded
    child.unref();
    if (child.pid === undefined) return;
    const { endedAt: _ended, ...rest } = record;
    await writeRunProcess(folder, { ...rest, pid: child.pid, startedAt: new Date().toISOString() });
  } finally {
    closeSync(log);
  }
}

/**
 * The `june` command of this installation: `dist/src/cli/bin.js` beside this module once
 * built, or the repository's build when Studio runs from its sources (in June's own tests).
 */
export function juneBin(): string {
  const built = fileURLToPath(new URL('../cli/bin.js', import.meta.url));
  if (existsSync(built)) return built;
  return fileURLToPath(new URL('../../dist/src/cli/bin.js', import.meta.url));
}

function inside(folder: string, path: string): boolean {
  const within = relative(folder, path);
  return within !== '' && !within.startsWith('..') && !isAbsolute(within);
}
