import { JuneError } from '../errors/june-error.js';
import { forkPlan, forkRun, type ForkChange, type ForkPlan } from '../run/fork-run.js';
import { runsFolderJournal } from './runs-folder-journal.js';
import { StudioRequestError } from './studio-request-error.js';

/** Where and how a recorded run of a runs folder is forked (see `forkRun`). */
export interface FolderForkRequest {
  /** The record's name or number. */
  at: string;
  change: ForkChange;
}

/**
 * What forking the run `runId` of the runs folder `runsDir` would do ({@link forkPlan}),
 * checked as a fork is, with nothing made.
 *
 * @throws {StudioRequestError} `studio-run-missing` (404, no journal of that run),
 *   `studio-fork-record-unknown` (404), `studio-fork-invalid` (400: a change that does not fit
 *   the record, props recorded redacted).
 */
export async function planFolderFork(
  runsDir: string,
  runId: string,
  request: FolderForkRequest,
): Promise<ForkPlan> {
  return refused(() => forkPlan(runsFolderJournal(runsDir), runId, request));
}

/**
 * Makes the fork's journal in the runs folder (a new run id), ready for
 * `june run <workflow> --resume <its id>`; what runs live after the fork point in words.
 *
 * @throws {StudioRequestError} as {@link planFolderFork}.
 */
export async function makeFolderFork(
  runsDir: string,
  runId: string,
  request: FolderForkRequest,
): Promise<ForkPlan & { runId: string }> {
  const fork = await refused(() => forkRun(runsFolderJournal(runsDir), runId, request));
  return {
    runId: fork.runId,
    point: fork.point,
    ...(fork.workflow !== undefined ? { workflow: fork.workflow } : {}),
    replayed: fork.replayed,
    live: fork.live,
  };
}

/** A fork's refusals as Studio answers them. */
async function refused<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof JuneError)) throw error;
    if (error.code === 'journal-missing')
      throw new StudioRequestError('studio-run-missing', error.message, 404);
    if (error.code === 'fork-record-unknown')
      throw new StudioRequestError('studio-fork-record-unknown', error.message, 404);
    if (error.code === 'fork-change-invalid' || error.code === 'fork-redacted')
      throw new StudioRequestError('studio-fork-invalid', error.message, 400, error.code);
    throw error;
  }
}
