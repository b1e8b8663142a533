import { appendFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What a `june run` process that takes answers from Studio (`--approve studio` or `wait`)
 * writes to `<runs>/<runId>/process.json` while it runs: who it is, and how to take the run
 * up again once it stopped.
 *
 * - `pid`: the process; Studio delivers answers to it while it is alive;
 * - `resume`: the command that resumes the run with Studio answering (`command` and `args`
 *   for `child_process.spawn`, in `cwd`); Studio starts it when a stopped run is answered.
 */
export interface RunProcess {
  pid: number;
  approve: 'studio' | 'wait';
  resume: { command: string; args: string[]; cwd: string };
  startedAt: string;
  /** Set when the process let go of the run (it ended, or stopped waiting). */
  endedAt?: string;
}

/**
 * One answer Studio gave, a line of `<runs>/<runId>/answers.jsonl`. `key` is the call's key
 * (`ApprovalRequest.key`, the same on every resume); a `reason` on a denial reaches the model.
 */
export interface StudioAnswer {
  key: string;
  approved: boolean;
  reason?: string;
  at: string;
}

/** The folder of one run next to its trace: `<runs>/<runId>/` (its journal is there too). */
export const runFolder = (runsDir: string, runId: string) => join(runsDir, runId);

/** Writes `process.json` of a run (the folder is made if needed). */
export async function writeRunProcess(folder: string, record: RunProcess): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await writeFile(join(folder, 'process.json'), `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

/**
 * Marks `process.json` as ended: the process let go of the run (which may still be
 * resumed with the command it holds).
 */
export async function endRunProcess(folder: string): Promise<void> {
  const record = await readRunProcess(folder);
  if (record) await writeRunProcess(folder, { ...record, endedAt: new Date().toISOString() });
}

/** True while the run's process is up and takes answers (it registered and has not ended). */
export function takesAnswers(record: RunProcess | undefined): boolean {
  return record !== undefined && record.endedAt === undefined && processAlive(record.pid);
}

/**
 * The run's `process.json`, or undefined when there is none or it is not one. Since Studio
 * may start its resume command, a file that another user owns, or that others may write to,
 * counts as none.
 */
export async function readRunProcess(folder: string): Promise<RunProcess | undefined> {
  try {
    const info = await stat(join(folder, 'process.json'));
    if ((info.mode & 0o022) !== 0 || (process.getuid && info.uid !== process.getuid()))
      return undefined;
    const record = JSON.parse(await readFile(join(folder, 'process.json'), 'utf8')) as RunProcess;
    const { pid, resume } = record;
    if (!Number.isInteger(pid) || typeof resume?.command !== 'string') return undefined;
    if (!Array.isArray(resume.args) || typeof resume.cwd !== 'string') return undefined;
    return record;
  } catch {
    return undefined;
  }
}

/** True while the process `pid` exists (a signal 0 reaches it, or it belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Appends one answer to the run's `answers.jsonl` (one short line: a single append). */
export async function appendAnswer(folder: string, answer: StudioAnswer): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await appendFile(join(folder, 'answers.jsonl'), `${JSON.stringify(answer)}\n`, { mode: 0o600 });
}

/**
 * The answers Studio gave for the run, by key (the first answer to a key wins); lines that are
 * not answers (a line still being written) are skipped.
 */
export async function readAnswers(folder: string): Promise<Map<string, StudioAnswer>> {
  const answers = new Map<string, StudioAnswer>();
  let text = '';
  try {
    text = await readFile(join(folder, 'answers.jsonl'), 'utf8');
  } catch {
    return answers;
  }
  for (const line of text.split('\n')) {
    try {
      const answer = JSON.parse(line) as StudioAnswer;
      if (typeof answer.key !== 'string' || typeof answer.approved !== 'boolean') continue;
      if (!answers.has(answer.key)) answers.set(answer.key, answer);
    } catch {
      // an empty or partial line
    }
  }
  return answers;
}
