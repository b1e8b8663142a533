import { spawn } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { newRunId } from '../engine/run-id.js';
import { modelChoiceFlags } from './model-choice-flags.js';
import type { ProcessSlots } from './process-slots.js';
import { checkProps } from './props-check.js';
import { juneBin } from '../host/resume-run.js';
import { StudioRequestError } from '../host/studio-request-error.js';
import type { StartedRun } from '../workflows/workbench-api.js';
import type { WorkbenchCatalog, WorkbenchWorkflow } from '../workflows/workbench-catalog.js';

/** How long a started `june run` has to write its first trace, in ms. */
const FIRST_TRACE_MS = 60_000;
const POLL_MS = 50;

/** Where the workbench starts runs: its catalog, and the runs folder Studio shows. */
export interface WorkbenchPlaces {
  catalog: WorkbenchCatalog;
  /** The runs folder (absolute): `<catalog.root>/.june/runs`, where `june run` writes. */
  runsDir: string;
  /** The environment runs start in (the provider's keys). @default process.env */
  env?: NodeJS.ProcessEnv;
  /** The bound on the `june` processes the workbench runs at once (runs, tried tools). */
  slots: ProcessSlots;
}

/**
 * The workflow of a workbench request, by the id in its path.
 * @throws {StudioRequestError} `studio-workflow-unknown` (404) for an id the catalog did not find.
 */
export async function catalogWorkflow(
  catalog: WorkbenchCatalog,
  id: string,
): Promise<WorkbenchWorkflow> {
  const found = await catalog.workflow(id);
  if (found) return found;
  throw new StudioRequestError(
    'studio-workflow-unknown',
    `june: no workflow ${JSON.stringify(id.slice(0, 200))} in ${catalog.root}; the list at /api/workflows has the ones Studio can start.`,
    404,
  );
}

/**
 * `POST /api/workflows/<id>/runs`: starts the workflow as an ordinary run, a `june run` of
 * June's own command (never one read from a request or a file) in the project folder, with
 * Studio answering its approvals: `june run <file> --run-id=<new id> --approve=studio
 * --props=<json> <model flags>`, detached (it outlives Studio; its output goes to
 * `<runs>/<runId>/studio.log`). Answers once the run's trace exists, so the page can follow it.
 *
 * Everything is checked first, and nothing starts when a check fails: the id must be one
 * the catalog found, the props must fit its schema, the model choice must be usable
 * (`modelChoiceFlags`), and fewer than `places.slots.max` processes the workbench started may
 * be running (`ProcessSlots`).
 *
 * @throws {StudioRequestError} `studio-request-invalid` (400) for a body that is not
 *   `{ props, model }`; `studio-workflow-unknown` (404); `studio-props-invalid` (400);
 *   `studio-model-invalid` (400); `studio-run-start-failed` (422, with the run's `june:`
 *   message) when `june run` ends before its first trace; `studio-runs-busy` (429) when the
 *   workbench runs as many processes as it may.
 */
export async function startWorkflowRun(
  places: WorkbenchPlaces,
  id: string,
  body: unknown,
): Promise<StartedRun> {
  const workflow = await catalogWorkflow(places.catalog, id);
  const request = startRequest(body);
  const props = checkProps(request.props, workflow.entry.propsSchema, id);
  const modelFlags = await modelChoiceFlags(request.model, {
    root: places.catalog.root,
    runsDir: places.runsDir,
    ...(places.env ? { env: places.env } : {}),
  });
  const runId = newRunId();
  const args = [
    'run',
    workflow.file,
    `--run-id=${runId}`,
    '--approve=studio',
    `--props=${JSON.stringify(props)}`,
    ...modelFlags,
  ];
  const exited = await spawnJune(args, places, runId);
  await firstTrace(places.runsDir, runId, exited);
  return { runId };
}

/** `{ props, model }`, or a 400. */
function startRequest(body: unknown): { props: unknown; model: unknown } {
  const { props, model } = (body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || body === null || model === undefined)
    throw new StudioRequestError(
      'studio-request-invalid',
      'june: a start-run request is JSON { "props": {...}, "model": { "kind": "script", "path": "..." } | { "kind": "replay", "runId": "..." } | { "kind": "provider" } }.',
      400,
    );
  return { props: props ?? {}, model };
}

/**
 * Starts June's own command with `args` in the project folder, detached, its output in
 * `<runs>/<runId>/studio.log` (a folder made for the run, private to this user). It holds one
 * of `places.slots` until it exits.
 * @returns a promise of its exit code that settles when it ends (never rejects)
 * @throws {StudioRequestError} `studio-runs-busy` (429) when every slot is taken, before
 *   anything is made; `studio-request-invalid` (400) for a run id that is taken.
 */
export async function spawnJune(
  args: string[],
  places: WorkbenchPlaces,
  runId: string,
  detached = true,
): Promise<{ exited: Promise<number | null>; log: string; kill: () => void }> {
  const release = places.slots.take();
  try {
    const started = await spawnLogged(args, places, runId, detached);
    void started.exited.then(release);
    return started;
  } catch (error) {
    release();
    throw error;
  }
}

async function spawnLogged(
  args: string[],
  places: WorkbenchPlaces,
  runId: string,
  detached: boolean,
): Promise<{ exited: Promise<number | null>; log: string; kill: () => void }> {
  const folder = join(places.runsDir, runId);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const logPath = join(folder, 'studio.log');
  let log: number;
  try {
    log = openSync(
      logPath,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
  } catch {
    throw new StudioRequestError(
      'studio-request-invalid',
      `june: run ${runId} exists already in the runs folder; give a new run id.`,
      400,
    );
  }
  try {
    const child = spawn(process.execPath, [juneBin(), ...args], {
      cwd: places.catalog.root,
      detached,
      env: places.env ?? process.env,
      stdio: ['ignore', log, log],
    });
    const exited = new Promise<number | null>((resolveExit) => {
      child.on('error', () => resolveExit(null));
      child.on('exit', (code) => resolveExit(code));
    });
    if (detached) child.unref();
    return { exited, log: logPath, kill: () => child.kill('SIGTERM') };
  } finally {
    closeSync(log);
  }
}

/**
 * Waits until the run's trace exists; a `june run` that ends first (a workflow that does not
 * load, a journal taken) is a 422 with the `june:` line it printed.
 */
export async function firstTrace(
  runsDir: string,
  runId: string,
  started: Awaited<ReturnType<typeof spawnJune>>,
): Promise<void> {
  let code: number | null | undefined;
  void started.exited.then((exit) => (code = exit ?? -1));
  const deadline = Date.now() + FIRST_TRACE_MS;
  const trace = join(runsDir, `${runId}.json`);
  while (!existsSync(trace)) {
    if (code !== undefined || Date.now() > deadline) throw startFailed(started.log, runId, code);
    await new Promise((resolveWait) => setTimeout(resolveWait, POLL_MS));
  }
}

/** `studio-run-start-failed`, with the `june:` line the run printed when there is one. */
export function startFailed(
  logPath: string,
  runId: string,
  code: number | null | undefined,
): StudioRequestError {
  let said = '';
  try {
    said = readFileSync(logPath, 'utf8');
  } catch {
    // no log to quote
  }
  const line = said
    .split('\n')
    .reverse()
    .find((text) => text.startsWith('june: '));
  const why =
    line ??
    (code === undefined
      ? `june: run ${runId} wrote no trace within ${FIRST_TRACE_MS} ms`
      : `june: run ${runId} ended (exit code ${code}) before it began`);
  return new StudioRequestError(
    'studio-run-start-failed',
    `${why}${line ? '' : `; see ${logPath}`}`,
    422,
  );
}
