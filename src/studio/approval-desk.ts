import type { Trace } from '../trace/trace-node.js';
import type { RunDirectory } from './run-directory.js';
import {
  appendAnswer,
  readAnswers,
  readRunProcess,
  runFolder,
  takesAnswers,
} from './run-answers.js';
import { checkRunFolder } from './run-folder.js';
import { JuneError } from '../errors/june-error.js';
import { resumeProblem, resumeRun } from './resume-run.js';
import { StudioRequestError } from './studio-request-error.js';
import { approvalsInTrace, unansweredInJournal, type RunApprovals } from './waiting-approvals.js';

/** A person's answer to one waiting call, by the call's key; a denial's `reason` reaches the model. */
export interface ApprovalAnswerInput {
  key: string;
  approved: boolean;
  reason?: string;
}

/** What became of an answer: handed to the live run, or recorded and the stopped run resumed (or left to resume). */
export interface AnswerOutcome {
  delivered: 'live' | 'resumed' | 'recorded';
}

/**
 * Where Studio reads the approvals a run waits for and sends a person's answers: the runs
 * folder ({@link fileApprovalDesk}) or a database of runs (`june studio --database`).
 */
export interface ApprovalDesk {
  /** @throws {StudioRequestError} `studio-run-missing` for a run it does not have. */
  approvals(runId: string): Promise<RunApprovals>;
  /**
   * @throws {StudioRequestError} `studio-run-missing`; `studio-approval-unknown` when the run
   *   waits for no approval of that key (answered already, or never asked).
   */
  answer(runId: string, answer: ApprovalAnswerInput): Promise<AnswerOutcome>;
}

/**
 * The approval desk of a runs folder. A run waits for the calls its trace shows pending
 * (or withdrawn when its process stopped) that its journal holds without an answer and that
 * Studio did not answer yet. An answer is appended to `<runId>/answers.jsonl`: a live
 * process (`june run --approve studio`) takes it from there; a stopped run whose process left
 * sealed resume details (`--approve studio` or `wait`) is resumed by Studio with a `june run`
 * it builds itself (`resume-run.ts`), and the resumed run finds the answer there. A run folder
 * that is a link, another user's, or writable by others is refused (403
 * `studio-run-folder-unsafe`) before anything in it is read or written.
 *
 * @example
 * ```ts
 * const desk = fileApprovalDesk(runs);
 * await desk.answer(runId, { key, approved: false, reason: 'not on a Friday' });
 * ```
 */
export function fileApprovalDesk(runs: RunDirectory): ApprovalDesk {
  const approvals = (runId: string) => runApprovals(runs, runId);
  return {
    approvals,
    async answer(runId, answer) {
      const current = await approvals(runId);
      if (!current.waiting.some((approval) => approval.key === answer.key))
        throw new StudioRequestError(
          'studio-approval-unknown',
          `june: run "${runId}" waits for no approval of the call "${answer.key}" (answered already, or never asked); reload the run to see what it waits for.`,
          409,
        );
      const folder = runFolder(runs.dir, runId);
      await trusted(runId, folder, () =>
        appendAnswer(folder, {
          key: answer.key,
          approved: answer.approved,
          ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
          at: new Date().toISOString(),
        }),
      );
      if (current.state === 'live') return { delivered: 'live' };
      const record = await trusted(runId, folder, () => readRunProcess(folder));
      if (!record) return { delivered: 'recorded' };
      if (takesAnswers(record)) return { delivered: 'live' };
      if ((await resumeProblem(runs.dir, runId, record)) !== undefined)
        return { delivered: 'recorded' };
      await resumeRun(folder, runId, record);
      return { delivered: 'resumed' };
    },
  };
}

/** What the run waits for, and whether Studio resumes it once answered (see {@link fileApprovalDesk}). */
async function runApprovals(runs: RunDirectory, runId: string): Promise<RunApprovals> {
  const found = await runs.readTrace(runId);
  if (!('text' in found))
    throw new StudioRequestError(
      'studio-run-missing',
      `june: no readable run "${runId}" in Studio's runs folder; the list at /api/runs has the runs there.`,
      404,
    );
  const folder = runFolder(runs.dir, runId);
  const [record, unanswered, given] = await trusted(runId, folder, () =>
    Promise.all([readRunProcess(folder), unansweredInJournal(folder, runId), readAnswers(folder)]),
  );
  const live = takesAnswers(record);
  const waiting = approvalsInTrace(JSON.parse(found.text) as Trace).filter(
    (approval) => !given.has(approval.key) && (unanswered ? unanswered.has(approval.key) : live),
  );
  if (waiting.length === 0) return { runId, state: 'none', resumable: false, waiting };
  if (live) return { runId, state: 'live', resumable: false, waiting };
  const notResumable = record && (await resumeProblem(runs.dir, runId, record));
  return {
    runId,
    state: 'stopped',
    resumable: !!record && notResumable === undefined,
    ...(notResumable ? { notResumable } : {}),
    waiting,
  };
}

/**
 * Runs `work` on a run folder, first checking the folder itself; a folder or file June does
 * not trust (`run-folder-unsafe`) becomes a 403 `studio-run-folder-unsafe` that says why.
 */
async function trusted<T>(runId: string, folder: string, work: () => Promise<T>): Promise<T> {
  try {
    await checkRunFolder(folder);
    return await work();
  } catch (error) {
    if (!JuneError.isInstance(error) || error.code !== 'run-folder-unsafe') throw error;
    throw new StudioRequestError(
      'studio-run-folder-unsafe',
      `${error.message.replace(/^june: /, `june: run "${runId}": `)}`,
      403,
    );
  }
}
