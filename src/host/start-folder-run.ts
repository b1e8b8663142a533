import { spawn } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isRunId, newRunId } from '../engine/run-id.js';
import { juneBin } from './resume-run.js';
import type { HostRunRequest } from './run-host.js';
import { runExists, StudioRequestError } from './studio-request-error.js';

/** How long a started `june run` has to write its first trace, in ms. */
const FIRST_TRACE_MS = 60_000;
const POLL_MS = 50;

/**
 * Starts `june run <workflow> --run-id=<id> --approve=studio --props=<json> [--script=<file>]`
 * (with the request's `policy`, `--approve=all|none` instead)
 * with June's own command, in the project folder the runs folder `runsDir` belongs to
 * (`<project>/.june/runs`), detached (the run outlives whoever started it), its output in
 * `<runsDir>/<runId>/host.log` and its script, when given, in `<runsDir>/<runId>/script.json`
 * (a folder made for the run, private to this user). Resolves once the run's trace exists.
 * With `resume`, the run's journal is there already (a fork's): `june run <workflow>
 * --resume=<id>` takes it up, with its recorded props unless `props` are given.
 *
 * @returns the run id.
 * @throws {StudioRequestError} `studio-request-invalid` (400) for a run id that is not one;
 *   `studio-run-exists` (409) for one the folder has; `studio-run-start-failed` (422, with the run's `june:` line) when `june run`
 *   ends before its first trace.
 */
export async function startFolderRun(
  runsDir: string,
  request: HostRunRequest,
  options: { resume?: boolean } = {},
): Promise<string> {
  const runId = request.runId ?? newRunId();
  if (!options.resume) checkNewRunId(runsDir, runId);
  const folder = join(runsDir, runId);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const args = [
    juneBin(),
    'run',
    request.workflow,
    // a fork's journal is made already: the run takes it up
    options.resume ? `--resume=${runId}` : `--run-id=${runId}`,
    // a request policy answers in the run's process; without one, Studio's answers file does
    ...(request.policy
      ? [
          `--approve=${request.policy.approve}`,
          ...(request.policy.escalations ? ['--approve-escalations'] : []),
        ]
      : ['--approve=studio']),
    ...(options.resume && request.props === undefined
      ? []
      : [`--props=${JSON.stringify(request.props ?? {})}`]),
    ...(request.thread !== undefined ? [`--thread=${request.thread}`] : []),
  ];
  if (request.script !== undefined) {
    const script = join(folder, 'script.json');
    await writeFile(script, JSON.stringify(request.script), { mode: 0o600, flag: 'wx' });
    args.push(`--script=${script}`);
  }
  const log = join(folder, 'host.log');
  const fd = openSync(log, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  let exit: number | null | undefined;
  try {
    const child = spawn(process.execPath, args, {
      cwd: dirname(dirname(runsDir)),
      detached: true,
      stdio: ['ignore', fd, fd],
    });
    child.on('error', () => (exit = null));
    child.on('exit', (code) => (exit = code));
    child.unref();
  } finally {
    closeSync(fd);
  }
  const deadline = Date.now() + FIRST_TRACE_MS;
  while (!existsSync(join(runsDir, `${runId}.json`))) {
    if (exit !== undefined || Date.now() > deadline) throw startFailed(log, runId, exit);
    await new Promise((resolveWait) => setTimeout(resolveWait, POLL_MS));
  }
  return runId;
}

/**
 * Checks that `runId` is a run id the runs folder has no run of.
 * @throws {StudioRequestError} `studio-request-invalid` (400), `studio-run-exists` (409)
 */
export function checkNewRunId(runsDir: string, runId: string): void {
  if (!isRunId(runId))
    throw new StudioRequestError(
      'studio-request-invalid',
      `june: ${JSON.stringify(String(runId).slice(0, 200))} is not a run id (1 to 128 letters, digits, ".", "_" or "-"); give another one, or none for a new one.`,
      400,
    );
  if (existsSync(join(runsDir, `${runId}.json`)) || existsSync(join(runsDir, runId)))
    throw runExists(runId);
}

function startFailed(log: string, runId: string, exit: number | null | undefined) {
  let said = '';
  try {
    said = readFileSync(log, 'utf8');
  } catch {
    // nothing to quote
  }
  const line = said
    .split('\n')
    .reverse()
    .find((text) => text.startsWith('june: '));
  return new StudioRequestError(
    'studio-run-start-failed',
    line ??
      `june: run ${runId} ${exit === undefined ? `wrote no trace within ${FIRST_TRACE_MS} ms` : `ended (exit code ${exit}) before it began`}; see ${log}`,
    422,
  );
}
