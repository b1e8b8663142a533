import { resolve } from 'node:path';
import { SystemError } from '../errors/june-error.js';
import { fileApprovalDesk } from './approval-desk.js';
import { HostListeners } from './host-listeners.js';
import { resumeProblem, resumeRun } from './resume-run.js';
import { readRunProcess, runFolder, takesAnswers } from './run-answers.js';
import { RunDirectory } from './run-directory.js';
import type { RunHost } from './run-host.js';
import { runState } from './run-state.js';
import { startFolderRun } from './start-folder-run.js';
import { planFolderFork, startFolderFork } from './folder-fork.js';
import { folderThreadReads } from './folder-threads.js';
import { runMissing, waitForEnd } from './wait-for-end.js';
import type { Trace } from '../trace/trace-node.js';

/** Options of {@link folderRunHost}. */
export interface FolderRunHostOptions {
  /** The runs folder (`<project>/.june/runs`), as the user gave it; it may not exist yet. */
  dir: string;
  /** How often to look at the folder even when `fs.watch` reports nothing, in ms. @default 1000 */
  pollIntervalMs?: number;
}

/**
 * The runs folder as a {@link RunHost}: the trace files `june run` writes (`<runId>.json`,
 * watched and polled by {@link RunDirectory}), the approvals their processes wait for and
 * the answers file (`fileApprovalDesk`). A run starts as a `june run ... --approve studio` of
 * June's own command in the folder's project (`startFolderRun`); `cancel` stops its process
 * (SIGTERM: the run ends `aborted`, its journal kept); `resume` starts `june run --resume`
 * from the run's sealed resume details; `fork` makes a fork's journal in the folder and starts
 * `june run <workflow> --resume <fork>`. The folder keeps traces, not events: `events` throws
 * `run-host-unsupported`.
 *
 * @example
 * ```ts
 * const host = await folderRunHost({ dir: '.june/runs' });
 * console.log((await host.list()).length);
 * await host.close();
 * ```
 */
export async function folderRunHost(options: FolderRunHostOptions): Promise<RunHost> {
  const dir = resolve(options.dir);
  const listeners = new HostListeners();
  const runs = new RunDirectory({
    dir,
    onChange: listeners.send,
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
  });
  await runs.start();
  const desk = fileApprovalDesk(runs);
  const readTrace = (runId: string) => runs.readTrace(runId);
  return {
    label: options.dir,
    start: (request) => startFolderRun(dir, request),
    forkPlan: (runId, request) => planFolderFork(dir, runId, request),
    fork: (runId, request) => startFolderFork(dir, runId, request),
    ...folderThreadReads(dir),
    list: () => runs.list(),
    readTrace,
    subscribe: (onChange) => listeners.add(onChange),
    events: () => noEvents(options.dir),
    decisions: (runId) => desk.approvals(runId),
    answer: (runId, answer) => desk.answer(runId, answer),
    async cancel(runId) {
      const trace = await existing(runId);
      if (runState(trace) !== 'running' && runState(trace) !== 'waiting') return;
      const record = await readRunProcess(runFolder(dir, runId)).catch(() => undefined);
      if (!record || !takesAnswers(record))
        throw new SystemError(
          'run-host-unsupported',
          `june: run "${runId}" was not started to be answered from here (no live process.json); stop it where it runs (Ctrl-C).`,
        );
      process.kill(record.pid, 'SIGTERM');
    },
    result: (runId, waiting) => waitForEnd(runId, readTrace, waiting?.signal),
    async resume(runId) {
      await existing(runId);
      const folder = runFolder(dir, runId);
      const record = await readRunProcess(folder);
      const problem = record
        ? takesAnswers(record)
          ? 'its process still runs it'
          : await resumeProblem(dir, runId, record)
        : 'it has no resume details (process.json): it was not started with --approve studio or wait';
      if (problem !== undefined)
        throw new SystemError(
          'run-host-unsupported',
          `june: run "${runId}" is not resumed from here: ${problem}; resume it with june run --resume ${runId}.`,
        );
      await resumeRun(folder, runId, record!);
    },
    close: async () => runs.close(),
  };

  async function existing(runId: string): Promise<Trace> {
    const found = await runs.readTrace(runId);
    if (!('text' in found)) throw runMissing(runId);
    return JSON.parse(found.text) as Trace;
  }
}

/** The runs folder's `events`: it keeps traces, not events. */
// eslint-disable-next-line require-yield
async function* noEvents(dir: string): AsyncGenerator<never> {
  throw new SystemError(
    'run-host-unsupported',
    `june: the runs folder ${dir} keeps each run's trace, not its events; read the trace (it changes as the run goes), or run over a database to follow events.`,
  );
}
