import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { forkPlan, forkRun } from '../run/fork-run.js';
import type { ModelScript } from '../testing/script-format.js';
import {
  forkRefused,
  hostForkPlan,
  type HostFork,
  type HostForkPlan,
  type HostForkRequest,
} from './host-fork.js';
import { runsFolderJournal } from './runs-folder-journal.js';
import { checkNewRunId, startFolderRun } from './start-folder-run.js';
import { StudioRequestError } from './studio-request-error.js';

/**
 * What forking the run `runId` of the runs folder `runsDir` would do (`forkPlan`), checked
 * as a fork is, with nothing made.
 *
 * @throws {StudioRequestError} `studio-run-missing` (404, no journal of that run),
 *   `studio-fork-record-unknown` (404), `studio-fork-invalid` (400: a change that does not fit
 *   the record, props recorded redacted).
 */
export async function planFolderFork(
  runsDir: string,
  runId: string,
  request: HostForkRequest,
): Promise<HostForkPlan> {
  return forkRefused(async () =>
    hostForkPlan(
      await forkPlan(runsFolderJournal(runsDir), runId, {
        at: request.at,
        change: request.change,
        ...(request.props !== undefined ? { props: request.props } : {}),
      }),
    ),
  );
}

/**
 * Forks the run `runId` of the runs folder `runsDir` (its journal made there, `forkRun`) and
 * starts it as `june run <the recorded workflow file> --resume=<fork id> --approve=studio`
 * in the folder's project (`startFolderRun`), with the request's script, else the one the
 * recorded run was started with by a host (`<runId>/script.json`). Resolves once the fork's
 * trace exists.
 *
 * @throws {StudioRequestError} as {@link planFolderFork}; `studio-workflow-unknown` (404) when
 *   the recorded run names no workflow file; `studio-run-exists` (409); what `startFolderRun`
 *   throws.
 */
export async function startFolderFork(
  runsDir: string,
  runId: string,
  request: HostForkRequest,
): Promise<HostFork> {
  const plan = await planFolderFork(runsDir, runId, request);
  if (plan.workflow === undefined)
    throw new StudioRequestError(
      'studio-workflow-unknown',
      `june: run "${runId}" names no workflow file, so its fork cannot be started here; make it with june fork ${runId} --no-start and run it with june run <file> --resume <fork id>.`,
      404,
    );
  if (request.runId !== undefined) checkNewRunId(runsDir, request.runId);
  const made = await forkRefused(() =>
    forkRun(runsFolderJournal(runsDir), runId, {
      at: request.at,
      change: request.change,
      ...(request.runId !== undefined ? { runId: request.runId } : {}),
      ...(request.props !== undefined ? { props: request.props } : {}),
    }),
  );
  const script = request.script ?? (await keptScript(runsDir, runId));
  await startFolderRun(
    runsDir,
    {
      workflow: plan.workflow,
      runId: made.runId,
      ...(request.props !== undefined ? { props: request.props } : {}),
      ...(script !== undefined ? { script } : {}),
    },
    { resume: true },
  );
  return { ...hostForkPlan(made), runId: made.runId };
}

/** The script a host started the run with (`<runsDir>/<runId>/script.json`), if any. */
async function keptScript(runsDir: string, runId: string): Promise<ModelScript | undefined> {
  const text = await readFile(join(runsDir, runId, 'script.json'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : (JSON.parse(text) as ModelScript);
}
