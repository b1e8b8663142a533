import type { RunFlagValues } from '../host/run-flags.js';
import type { CliIO } from './cli-io.js';
import { ExitCode, type ExitCodeValue } from './exit-code.js';
import { followRun } from './follow-run.js';
import type { LoadedWorkflow } from './load-workflow.js';
import type { RunCommandOptions } from './run-command-options.js';
import type { RunSession } from './run-session.js';
import { terminalJson } from './visible-text.js';

export type { RunCommandOptions } from './run-command-options.js';
export { runsFolder } from './local-run-session.js';

/** `june run`'s flags: a run in this process's runs folder, or with `database` one queued there (`follow` to follow it). */
export type RunCommandFlags = RunCommandOptions &
  Partial<Pick<RunFlagValues, 'database' | 'follow'>>;

/**
 * `june run <file>`, on whichever host its flags name, by one path: the session's factory
 * ({@link openRunSession}) reads the inputs and starts the run on its host (in this process
 * over the runs folder; with `--database`, queued for the workers), then `followRun` shows its
 * progress (or JSON events), answers its requests as `--approve` says, and reports its end.
 * A run in this process writes its trace to `.june/runs/<runId>.json` (and `--trace`) as it
 * goes, whatever way it ends; its journal goes to `.june/runs/<runId>/journal.jsonl`, which
 * `--resume <runId>` takes a stopped run up again from (its props too, unless `--props`; with
 * `--script`, without the turns the journal already answered), and `--replay` answers every
 * model call from a recorded one (with `--replay-tools`, every tool call too: no tool runs).
 * A run queued without `--follow` is only named (`queued run <id>`).
 *
 * @param loaded - `file`, when the caller loaded it already (`june fork`).
 * @returns the exit code: 0 when the run succeeded (or was queued), 1 when it failed, was
 *   cancelled, or could not ask for an approval; 2 for a usage error; after a stop signal
 *   that stopped a run in this process (its trace written): 130 for Ctrl-C (SIGINT), 143 for
 *   SIGTERM, 129 for SIGHUP. A second signal quits at once, leaving the trace settled as
 *   `aborted`. A stop signal while following a run over the database stops following only.
 * @throws {JuneError} before the run starts: `cli-props-invalid`, `cli-workflow-missing`,
 *   `cli-option-invalid` (`--resume` with `--replay`, `--replay` with `--script`,
 *   `--replay-tools` without `--replay`, a `--run-id` the runs folder has a run of, an
 *   `--otel` collector address that is not an http(s) URL; with `--database`, a flag the
 *   workers cannot honour), `thread-id-invalid` (a bad `--thread`), `script-unreadable`,
 *   `script-invalid` (bad usage), the workflow's load errors (`workflow-load-failed`,
 *   `workflow-default-missing`, `workflow-default-invalid`) and the journal's
 *   (`journal-missing`, `journal-corrupt`, `journal-mismatch`, `journal-unreadable`,
 *   `journal-version-unsupported`); `run-folder-unsafe` when a run resumed with Studio
 *   answering has a folder that is a link, another user's, or writable by others;
 *   `run-owned` when `--resume` names a run another process runs (unless
 *   `--wait-for-owner`, which waits for it to let go); `dbos-props-secret` when a run queued
 *   for the workers would carry a value it redacts.
 * @example
 * ```ts
 * process.exitCode = await runCommand('examples/release.tsx', { script: 'examples/release.script.json', approve: 'all' }, processIO());
 * ```
 */
export async function runCommand(
  file: string,
  options: RunCommandFlags,
  io: CliIO,
  loaded?: LoadedWorkflow,
): Promise<ExitCodeValue> {
  const session = await openRunSession(file, options, io, loaded);
  try {
    // a run queued for the workers goes on without this process unless it is followed
    if (!session.here && !options.follow) {
      io.stdout.write(
        options.json
          ? `${terminalJson({ runId: session.runId })}\n`
          : `queued run ${session.runId}\n`,
      );
      return ExitCode.success;
    }
    return await followRun(session, options, io);
  } finally {
    await session.close();
  }
}

/**
 * The one place `june run`'s flags choose the host: with `--database`, a run queued for the
 * workers (`databaseRunSession`); otherwise one started in this process over the runs
 * folder (`localRunSession`). Each loads its module when it runs.
 * @throws {JuneError} what {@link runCommand} lists as thrown before the run starts.
 */
export async function openRunSession(
  file: string,
  options: RunCommandFlags,
  io: CliIO,
  loaded?: LoadedWorkflow,
): Promise<RunSession> {
  const { database, follow: _follow, ...flags } = options;
  if (database !== undefined) {
    const { databaseRunSession } = await import('./database-run-session.js');
    return databaseRunSession(file, { ...options, database }, io);
  }
  const { localRunSession } = await import('./local-run-session.js');
  return localRunSession(file, flags, io, loaded);
}
