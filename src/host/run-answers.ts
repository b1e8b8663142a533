import { z } from 'zod';
import { join } from 'node:path';
import { processAlive } from '../journal/owner-alive.js';
import { resumeDetailsSchema } from './resume-details.js';
import { readRunFile, writeRunFile } from './run-folder.js';

/**
 * What a `june run` process that takes answers from Studio (`--approve studio` or `wait`)
 * writes to `<runs>/<runId>/process.json` while it runs: who it is, and how to take the run
 * up again once it stopped.
 *
 * - `pid`: the process; Studio delivers answers to it while it is alive;
 * - `resume`: what a resume needs (`ResumeDetails`: the workflow file, the folder, the flags
 *   as values), from which Studio builds a `june run` of its own; never a command;
 * - `seal`: the resume details' seal under this user's key (`resume-seal.ts`); Studio resumes
 *   only a run whose seal holds.
 */
export const runProcessSchema = z.object({
  pid: z.number().int().positive(),
  approve: z.enum(['studio', 'wait']),
  resume: resumeDetailsSchema,
  seal: z.string().optional(),
  startedAt: z.string(),
  /** Set when the process let go of the run (it ended, or stopped waiting). */
  endedAt: z.string().optional(),
});

/** See {@link runProcessSchema}. */
export type RunProcess = z.infer<typeof runProcessSchema>;

/**
 * One answer given to a run of the folder (by Studio, `june approve`, a host), a line of
 * `<runs>/<runId>/answers.jsonl`. `key` is the call's key
 * (`ApprovalRequest.key`, the same on every resume); a `reason` on a denial reaches the model.
 */
export interface StudioAnswer {
  key: string;
  approved: boolean;
  reason?: string;
  /** An edited input, with an approval: the call runs with it. */
  input?: unknown;
  /** An answer instead of the tool, with a denial: the model reads it as the call's result. */
  output?: unknown;
  /** Who answered (the answer's `answeredBy`, else the user Studio runs as); absent in files written before. */
  by?: string;
  /**
   * Through what the answer came (`studio`, `cli` for `june approve`), recorded as its
   * `source`. @default "studio", and in files written before
   */
  source?: string;
  /** When the answer was given, ISO 8601: where the run's wait for it ended. */
  at: string;
}

/** The folder of one run next to its trace: `<runs>/<runId>/` (its journal is there too). */
export const runFolder = (runsDir: string, runId: string) => join(runsDir, runId);

/**
 * Writes `process.json` of a run (the folder is made if needed).
 * @throws {SystemError} `run-folder-unsafe` (see `run-folder.ts`)
 */
export async function writeRunProcess(folder: string, record: RunProcess): Promise<void> {
  await writeRunFile(folder, 'process.json', `${JSON.stringify(record)}\n`, 'replace');
}

/**
 * Marks `process.json` as ended: the process let go of the run (which may still be
 * resumed from the details it holds).
 */
export async function endRunProcess(folder: string): Promise<void> {
  const record = await readRunProcess(folder).catch(() => undefined);
  if (record) await writeRunProcess(folder, { ...record, endedAt: new Date().toISOString() });
}

/** True while the run's process is up and takes answers (it registered and has not ended). */
export function takesAnswers(record: RunProcess | undefined): boolean {
  return record !== undefined && record.endedAt === undefined && processAlive(record.pid);
}

/**
 * The run's `process.json`, or undefined when there is none or it is not one (an older
 * June's record too, which named a command: such a run is resumed from a terminal).
 *
 * @throws {SystemError} `run-folder-unsafe` when the folder or the file is not to be trusted
 */
export async function readRunProcess(folder: string): Promise<RunProcess | undefined> {
  const text = await readRunFile(folder, 'process.json');
  if (text === undefined) return undefined;
  try {
    const parsed = runProcessSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Appends one answer to the run's `answers.jsonl` (one short line: a single append).
 * @throws {SystemError} `run-folder-unsafe`
 */
export async function appendAnswer(folder: string, answer: StudioAnswer): Promise<void> {
  await writeRunFile(folder, 'answers.jsonl', `${JSON.stringify(answer)}\n`, 'append');
}

/**
 * The answers Studio gave for the run, by key (the first answer to a key wins); lines that are
 * not answers (a line still being written) are skipped.
 *
 * @throws {SystemError} `run-folder-unsafe` when the folder or the file is not to be trusted
 *   (another user's, writable by others, a link, or over 4 MiB)
 */
export async function readAnswers(folder: string): Promise<Map<string, StudioAnswer>> {
  const answers = new Map<string, StudioAnswer>();
  const text = (await readRunFile(folder, 'answers.jsonl')) ?? '';
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
