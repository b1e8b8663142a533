import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { Trace } from '../trace/trace-node.js';
import type { RunDirectory } from './run-directory.js';
import {
  appendAnswer,
  readAnswers,
  readRunProcess,
  runFolder,
  takesAnswers,
  writeRunProcess,
  type RunProcess,
} from './run-answers.js';
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
 * a resume command (`--approve studio` or `wait`) is resumed by Studio with that command
 * (detached, its output in `<runId>/resume.log`), and the resumed run finds the answer there.
 *
 * @example
 * ```ts
 * const desk = fileApprovalDesk(runs);
 * await desk.answer(runId, { key, approved: false, reason: 'not on a Friday' });
 * ```
 */
export function fileApprovalDesk(runs: RunDirectory): ApprovalDesk {
  const approvals = async (runId: string): Promise<RunApprovals> => {
    const found = await runs.readTrace(runId);
    if (!('text' in found))
      throw new StudioRequestError(
        'studio-run-missing',
        `june: no readable run "${runId}" in Studio's runs folder; the list at /api/runs has the runs there.`,
        404,
      );
    const folder = runFolder(runs.dir, runId);
    const [record, unanswered, given] = await Promise.all([
      readRunProcess(folder),
      unansweredInJournal(folder, runId),
      readAnswers(folder),
    ]);
    const live = takesAnswers(record);
    const waiting = approvalsInTrace(JSON.parse(found.text) as Trace).filter(
      (approval) => !given.has(approval.key) && (unanswered ? unanswered.has(approval.key) : live),
    );
    if (waiting.length === 0) return { runId, state: 'none', resumable: false, waiting };
    return { runId, state: live ? 'live' : 'stopped', resumable: !live && !!record, waiting };
  };
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
      await appendAnswer(folder, {
        key: answer.key,
        approved: answer.approved,
        ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
        at: new Date().toISOString(),
      });
      if (current.state === 'live') return { delivered: 'live' };
      const record = await readRunProcess(folder);
      if (!record || takesAnswers(record)) return { delivered: record ? 'live' : 'recorded' };
      await resumeRun(folder, record);
      return { delivered: 'resumed' };
    },
  };
}

/**
 * Starts the run's resume command, detached (it outlives Studio), its output appended to
 * `<folder>/resume.log`, and marks the new process in `process.json` at once, so a second
 * answer given meanwhile goes to it rather than starting another.
 */
async function resumeRun(folder: string, record: RunProcess): Promise<void> {
  const log = openSync(join(folder, 'resume.log'), 'a', 0o600);
  try {
    const { command, args, cwd } = record.resume;
    const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', log, log] });
    child.on('error', () => {}); // a command that cannot start leaves the run stopped, its answer recorded
    child.unref();
    if (child.pid === undefined) return;
    const { endedAt: _ended, ...rest } = record;
    await writeRunProcess(folder, { ...rest, pid: child.pid, startedAt: new Date().toISOString() });
  } finally {
    closeSync(log);
  }
}
