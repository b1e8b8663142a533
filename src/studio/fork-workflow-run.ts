import { makeFolderFork, planFolderFork, type FolderForkRequest } from '../host/folder-fork.js';
import { StudioRequestError } from '../host/studio-request-error.js';
import type { ForkedRun, ForkPreview } from '../workflows/workbench-api.js';
import { modelChoiceFlags } from './model-choice-flags.js';
import {
  catalogWorkflow,
  firstTrace,
  spawnJune,
  type WorkbenchPlaces,
} from './start-workflow-run.js';

/**
 * `POST /api/runs/<runId>/fork` (`ForkRunRequest`): forks a recorded run of the runs folder
 * at one of its records with one change, and starts the fork as the workbench starts a run:
 * `june run <file> --resume=<fork id> --approve=studio <model flags>` of June's own command
 * in the project folder, detached, answering once the fork's trace exists. With `preview`,
 * it only says what the fork would do (200 `ForkPreview`): which record, how much replays,
 * what runs live after it.
 *
 * Everything is checked before the fork's journal is made: the record and the change (as
 * `forkRun` checks them), the recorded run's workflow (a workflow of the catalog: Studio
 * never runs a file named only by a journal), the model choice (`modelChoiceFlags`).
 *
 * @throws {StudioRequestError} `studio-request-invalid` (400) for a body that is not a fork
 *   request; `studio-run-missing` (404); `studio-fork-record-unknown` (404);
 *   `studio-fork-invalid` (400); `studio-workflow-unknown` (404) when the recorded run's
 *   workflow is not one of the catalog's; `studio-model-invalid` (400); what starting a run
 *   throws (`studio-run-start-failed`, `studio-runs-busy`).
 */
export async function forkWorkflowRun(
  places: WorkbenchPlaces,
  runId: string,
  body: unknown,
): Promise<{ status: 200; body: ForkPreview } | { status: 202; body: ForkedRun }> {
  const request = forkRequest(body);
  const plan = await planFolderFork(places.runsDir, runId, request);
  const preview: ForkPreview = {
    record: plan.point.name,
    what: plan.point.what,
    replayed: plan.replayed,
    live: plan.live,
  };
  const workflow = await catalogWorkflow(places.catalog, plan.workflow ?? '');
  if ((body as { preview?: unknown }).preview === true) return { status: 200, body: preview };
  const modelFlags = await modelChoiceFlags((body as { model?: unknown }).model, {
    root: places.catalog.root,
    runsDir: places.runsDir,
    ...(places.env ? { env: places.env } : {}),
  });
  const fork = await makeFolderFork(places.runsDir, runId, request);
  const args = ['run', workflow.file, `--resume=${fork.runId}`, '--approve=studio', ...modelFlags];
  const started = await spawnJune(args, places, fork.runId);
  await firstTrace(places.runsDir, fork.runId, started);
  return { status: 202, body: { ...preview, runId: fork.runId } };
}

/** `{ at, change }` as `forkRun` takes them, or a 400. */
function forkRequest(body: unknown): FolderForkRequest {
  const { at, change } = (body ?? {}) as Record<string, unknown>;
  const atText = typeof at === 'number' ? String(at) : at;
  if (
    typeof atText !== 'string' ||
    atText.trim() === '' ||
    typeof change !== 'object' ||
    change === null ||
    Array.isArray(change)
  )
    throw new StudioRequestError(
      'studio-request-invalid',
      'june: a fork request is JSON { "at": "<record name or number>", "change": { "result" } | { "answer": "approve" | "deny", "reason"? } | { "output" } | { "model": "<model id>" }, "model": { "kind": "script", "path" } | { "kind": "provider" } }.',
      400,
    );
  const given = change as Record<string, unknown>;
  if ('model' in given && typeof given.model !== 'string')
    throw new StudioRequestError(
      'studio-fork-invalid',
      "june: a fork's other model is given by its id (a text, such as gpt-5).",
      400,
    );
  return { at: atText, change: given as FolderForkRequest['change'] };
}
