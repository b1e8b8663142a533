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
import { AnswerLock } from './answer-lock.js';
import { fileRunOwner } from '../journal/file-journal-store.js';
import { ownerText } from '../journal/run-lease.js';
import { StudioRequestError } from './studio-request-error.js';
import { answerRefused, editRefused, type AnswerRefusal } from './answer-refusal.js';
import { checkAnswerFits } from '../dbos/answer-fit.js';
import { localUser } from '../approvals/local-user.js';
import {
  approvalsInTrace,
  heldInTrace,
  requestSchemasInJournal,
  unansweredInJournal,
  type RunApprovals,
} from './waiting-approvals.js';

/**
 * A person's answer to one waiting call, by the call's key; a denial's `reason` reaches the
 * model; `answeredBy` names who answered (default: the user Studio runs as). An approval may
 * carry `input`, the call as it should run instead of the model's (an edit, checked against
 * the tool's input schema before it is given, when the run's journal recorded the schema,
 * and again where the run runs); a denial may carry `output`, an answer given
 * instead of the tool, which the model reads as its result. Both are plain JSON.
 */
export interface ApprovalAnswerInput {
  key: string;
  approved: boolean;
  reason?: string;
  answeredBy?: string;
  /** With `approved: true`: the call runs with this input instead of the model's (JSON). */
  input?: unknown;
  /** With `approved: false`: an answer instead of the tool, which does not run (JSON). */
  output?: unknown;
  /**
   * Through what the answer came, as the run records it (`june approve` sends `cli`).
   * @default "studio"
   */
  source?: string;
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
   * Answers one waiting call, once: a call answered already or not waiting is refused
   * (an {@link AnswerRefusal}, made an HTTP error by `answerRefused`), never answered twice.
   * @throws {StudioRequestError} `studio-run-missing`; `studio-approval-unknown` (409) when
   *   the run waits for no approval of that key (answered already, withdrawn, or never asked).
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
 * Answers to one run are taken one at a time ({@link AnswerLock}): of two answers to one call
 * given at once exactly one is taken (202) and the other refused (409
 * `studio-approval-unknown`), and a stopped run is resumed by the first answer only. A
 * stopped run that a process holds without taking answers from Studio (its lease, see
 * `fileRunOwner`) is not answered (409 `studio-run-owned`).
 *
 * @example
 * ```ts
 * const desk = fileApprovalDesk(runs);
 * await desk.answer(runId, { key, approved: false, reason: 'not on a Friday' });
 * ```
 */
export function fileApprovalDesk(runs: RunDirectory): ApprovalDesk {
  const approvals = (runId: string) => runApprovals(runs, runId);
  const lock = new AnswerLock();
  return {
    approvals,
    async answer(runId, answer) {
      checkAnswerShape(runId, answer);
      // refused at once when it cannot be taken; else checked again, and taken, under the lock
      const folder = runFolder(runs.dir, runId);
      const current = await approvals(runId);
      const refused = await notWaiting(runId, folder, current, answer.key);
      if (refused) throw answerRefused(refused);
      await checkAnswer(
        runId,
        folder,
        current.waiting.find((waiting) => waiting.key === answer.key),
        answer,
      );
      await trusted(runId, folder, async () => {});
      return lock.hold(runId, folder, () => answerOnce(runs, runId, answer));
    },
  };
}

/**
 * An answer is checked before it is recorded, as the run's inbox checks it, so one the run
 * would refuse is refused here (409 `studio-approval-invalid`, with the `june:` message) and
 * the call still waits: a question's value must fit its answer schema (and approving a
 * question, which needs a value, is refused); a tool call's edited input or answer instead
 * of the tool must fit the tool's schemas as the run's journal recorded them with the
 * request (a request recorded without them is left to the run, which checks with the tool's
 * own schemas).
 */
async function checkAnswer(
  runId: string,
  folder: string,
  waiting: RunApprovals['waiting'][number] | undefined,
  answer: ApprovalAnswerInput,
): Promise<void> {
  if (waiting === undefined) return;
  const question = waiting.kind === 'question' && waiting.question !== undefined;
  if (!question && answer.input === undefined && answer.output === undefined) return;
  const schemas = question
    ? {}
    : await trusted(runId, folder, () => requestSchemasInJournal(folder, runId, waiting.key));
  try {
    checkAnswerFits(
      {
        id: waiting.requestId,
        tool: waiting.tool,
        input: waiting.input,
        step: waiting.step,
        ...(question ? { kind: 'question' as const, question: waiting.question } : {}),
        ...(schemas.input ? { inputSchema: schemas.input } : {}),
        ...(schemas.output ? { outputSchema: schemas.output } : {}),
      },
      { approved: answer.approved, ...editOf(answer) },
    );
  } catch (error) {
    throw editRefused(error);
  }
}

/**
 * Takes one answer, alone among the answers to the run (see {@link AnswerLock}): checks the
 * call still waits, records the answer, and resumes a stopped run (once: the resumed process
 * is marked in `process.json` before the next answer is looked at, and it then counts as
 * live).
 */
async function answerOnce(
  runs: RunDirectory,
  runId: string,
  answer: ApprovalAnswerInput,
): Promise<AnswerOutcome> {
  const current = await runApprovals(runs, runId);
  const folder = runFolder(runs.dir, runId);
  const refused = await notWaiting(runId, folder, current, answer.key);
  if (refused) throw answerRefused(refused);
  if (current.state === 'stopped') await notOwned(runs.dir, runId);
  await trusted(runId, folder, () =>
    appendAnswer(folder, {
      key: answer.key,
      approved: answer.approved,
      ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
      ...editOf(answer),
      ...answeredBy(answer),
      ...(answer.source !== undefined ? { source: answer.source } : {}),
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
}

/** The answer's edited `input` and `output` instead of the tool, when it has them. */
export function editOf(answer: ApprovalAnswerInput): { input?: unknown; output?: unknown } {
  return {
    ...(answer.input !== undefined ? { input: answer.input } : {}),
    ...(answer.output !== undefined ? { output: answer.output } : {}),
  };
}

/**
 * Refuses an answer that is not one, before anything is written: an `input` goes only with
 * an approval, an `output` only with a denial.
 * @throws {StudioRequestError} `studio-request-invalid` (400)
 */
export function checkAnswerShape(runId: string, answer: ApprovalAnswerInput): void {
  const wrong =
    answer.input !== undefined && !answer.approved
      ? 'an edited "input" goes only with an approval'
      : answer.output !== undefined && answer.approved
        ? 'an "output" given instead of the tool goes only with a denial (approved: false)'
        : undefined;
  if (wrong)
    throw new StudioRequestError(
      'studio-request-invalid',
      `june: the answer to the call "${answer.key}" of run "${runId}" is not one: ${wrong}.`,
      400,
    );
}

/** `{ by }`: who answered, as given, else the user Studio runs as (when the system names one). */
function answeredBy(answer: ApprovalAnswerInput): { by?: string } {
  const by = answer.answeredBy ?? localUser();
  return by === undefined ? {} : { by };
}

/**
 * `undefined` when the run waits for an answer to the call `key`; else the outcome saying
 * it was answered already (Studio holds an answer for it, or its trace shows one) or is
 * not waiting.
 */
async function notWaiting(
  runId: string,
  folder: string,
  current: RunApprovals,
  key: string,
): Promise<AnswerRefusal | undefined> {
  if (current.waiting.some((approval) => approval.key === key)) return undefined;
  const answered = await trusted(runId, folder, async () => (await readAnswers(folder)).has(key));
  return {
    status: answered ? 'answered' : 'unknown',
    message: answered
      ? `june: run "${runId}" waits for no approval of the call "${key}": it was answered already, and an answer counts once; reload the run to see what it waits for.`
      : `june: run "${runId}" waits for no approval of the call "${key}" (withdrawn, or never asked); reload the run to see what it waits for.`,
  };
}

/**
 * Throws when a process that does not take answers from Studio holds the run (a
 * `june run --resume` at a terminal): an answer could neither reach it nor resume the run.
 * @throws {StudioRequestError} `studio-run-owned` (409)
 */
async function notOwned(runsDir: string, runId: string): Promise<void> {
  const owner = await fileRunOwner(runsDir, runId);
  if (!owner) return;
  throw new StudioRequestError(
    'studio-run-owned',
    `june: run "${runId}" is being run by ${ownerText(owner)}, which does not take answers from Studio; answer it where it runs, or once it stopped.`,
    409,
  );
}

/** What the run waits for, and whether Studio resumes it once answered (see {@link fileApprovalDesk}). */
async function runApprovals(runs: RunDirectory, runId: string): Promise<RunApprovals> {
  const found = await runs.readTrace(runId);
  if (!('text' in found))
    throw new StudioRequestError(
      'studio-run-missing',
      `june: no readable run "${runId}" in the runs folder ${runs.dir}; june runs (add --database <url> for a database's) and June Studio list the runs there.`,
      404,
    );
  const folder = runFolder(runs.dir, runId);
  const [record, unanswered, given] = await trusted(runId, folder, () =>
    Promise.all([readRunProcess(folder), unansweredInJournal(folder, runId), readAnswers(folder)]),
  );
  const live = takesAnswers(record);
  const trace = JSON.parse(found.text) as Trace;
  const waiting = approvalsInTrace(trace).filter(
    (approval) => !given.has(approval.key) && (unanswered ? unanswered.has(approval.key) : live),
  );
  if (waiting.length === 0) return { runId, state: 'none', resumable: false, waiting };
  const held = heldInTrace(trace);
  if (live)
    return { runId, state: 'live', resumable: false, waiting, ...(held.length ? { held } : {}) };
  const owner = await fileRunOwner(runs.dir, runId);
  const notResumable = owner
    ? `it is being run by ${ownerText(owner)}, which does not take answers from Studio`
    : record && (await resumeProblem(runs.dir, runId, record));
  return {
    runId,
    state: 'stopped',
    resumable: !!record && !notResumable,
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
