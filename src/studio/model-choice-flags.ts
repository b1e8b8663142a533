import { existsSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { isRunId } from '../engine/run-id.js';
import { StudioRequestError } from '../host/studio-request-error.js';
import type { ModelChoice } from '../workflows/workbench-api.js';
import { rerunRefusal } from '../host/rerun-offer.js';
import { runStatusIn } from '../host/run-status.js';

/**
 * The environment variables that configure June's bundled provider (`june/sdk/openai`): one
 * of them must be set for a run whose model is `{ kind: 'provider' }`.
 */
export const PROVIDER_ENV = ['OPENAI_API_KEY', 'OPENAI_BASE_URL'] as const;

/**
 * The `june run` flags for how a run started from Studio's page has its model answer,
 * checked before anything starts:
 * - `script`: a file inside the project `root` (links resolved), a regular `.json` file:
 *   `--script=<absolute path>`;
 * - `replay`: a run id of the runs folder whose journal exists and whose run ended succeeded
 *   (its recording is complete): `--replay=<runId> --replay-tools`, so no tool runs;
 * - `provider`: no flag, once one of {@link PROVIDER_ENV} is set in Studio's environment.
 *
 * @throws {StudioRequestError} `studio-model-invalid` (400) for a choice that is not one of
 *   these, a script outside the project or missing, a run without a journal, or a provider
 *   whose environment is not set (the message names the variables); `studio-rerun-incomplete`
 *   (409) for a replay of a run that did not end succeeded (see `rerunOffer`).
 */
export async function modelChoiceFlags(
  choice: unknown,
  places: { root: string; runsDir: string; env?: NodeJS.ProcessEnv },
): Promise<string[]> {
  const model = (choice ?? {}) as Partial<ModelChoice> & Record<string, unknown>;
  if (model.kind === 'script' && typeof model.path === 'string')
    return [`--script=${await projectScript(model.path, places.root)}`];
  if (model.kind === 'replay' && typeof model.runId === 'string') {
    if (!isRunId(model.runId) || !existsSync(join(places.runsDir, model.runId, 'journal.jsonl')))
      throw invalid(
        `there is no recorded run ${JSON.stringify(model.runId.slice(0, 80))} with a journal in the runs folder; pick a run from the list`,
      );
    const found = await runStatusIn(places.runsDir, model.runId);
    const refused = rerunRefusal(model.runId, found?.state ?? 'running', found?.pendingApprovals);
    if (refused) throw new StudioRequestError('studio-rerun-incomplete', refused, 409);
    // tools answered from the recording too: a re-run changes nothing outside the run
    return [`--replay=${model.runId}`, '--replay-tools'];
  }
  if (model.kind === 'provider') {
    const env = places.env ?? process.env;
    if (!PROVIDER_ENV.some((name) => (env[name] ?? '') !== ''))
      throw invalid(
        `the provider is not configured: set ${PROVIDER_ENV.join(' or ')} in the environment Studio starts in, or pick a script`,
      );
    return [];
  }
  throw invalid(
    'model must be { "kind": "script", "path" } (a script file of the project), { "kind": "replay", "runId" } or { "kind": "provider" }',
  );
}

/** The script's real path, once it is a `.json` file inside `root`. */
async function projectScript(path: string, root: string): Promise<string> {
  const shown = JSON.stringify(path.slice(0, 200));
  let real: string;
  let base: string;
  try {
    [real, base] = await Promise.all([realpath(resolve(root, path)), realpath(root)]);
  } catch {
    throw invalid(`the script ${shown} does not exist in the project`);
  }
  const within = relative(base, real);
  if (within === '' || within.startsWith('..') || isAbsolute(within))
    throw invalid(
      `the script ${shown} is outside the project (${root}); Studio runs only script files of the project`,
    );
  if (!real.endsWith('.json') || !(await stat(real)).isFile())
    throw invalid(`the script ${shown} is not a .json file`);
  return real;
}

function invalid(problem: string): StudioRequestError {
  return new StudioRequestError('studio-model-invalid', `june: ${problem}.`, 400);
}
