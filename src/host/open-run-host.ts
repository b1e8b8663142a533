import type { Component } from '../elements/element.js';
import { folderRunHost } from './folder-run-host.js';
import type { HostedRunOptions } from './memory-runs.js';
import type { RunHost } from './run-host.js';

/** Options of {@link openRunHost}: where the runs live, a folder or a database. */
export interface RunHostOptions {
  /** The runs folder (`june run` writes `<project>/.june/runs`). @default ".june/runs", when no `database` */
  dir?: string;
  /** A PostgreSQL URL of runs over DBOS (`--database`): the database's runs instead of a folder's. Needs `@dbos-inc/dbos-sdk`. */
  database?: string;
  /** How often to look at the folder (or read the database's list) even when nothing reported a change, in ms. @default 1000 */
  pollIntervalMs?: number;
  /**
   * The workflows this process runs, by the name `start` takes (their root components):
   * given without `database`, the folder's runs are started in this process (`localRunHost`)
   * rather than in a `june run` of their own.
   */
  workflows?: Record<string, Component>;
  /** With `workflows`: further options of every run it runs (a `model`, `redact`, ...). */
  runOptions?: HostedRunOptions;
}

/**
 * The run host the options name, and the one place that decides where runs live: the
 * database `database` when given (`databaseRunHost`; `dir` is then not read), else the
 * folder `dir`: its runs started in this process with `workflows` (`localRunHost`), else in
 * a `june run` each (`folderRunHost`). Every
 * entry point opens its host here, or takes one it was given (`memoryRunHost` in tests),
 * and never asks which it got.
 *
 * @throws {SystemError} what the database host throws (`dbos-missing`, `database-unreachable`,
 *   `database-auth-failed`).
 * @example
 * ```ts
 * const host = await openRunHost({ database: process.env.JUNE_DATABASE });
 * ```
 */
export async function openRunHost(options: RunHostOptions = {}): Promise<RunHost> {
  const poll =
    options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {};
  if (options.database !== undefined) {
    const { databaseRunHost } = await import('./database-run-host.js');
    return databaseRunHost({ database: options.database, ...poll });
  }
  const dir = options.dir ?? '.june/runs';
  if (options.workflows !== undefined) {
    const { localRunHost } = await import('./local-run-host.js');
    return localRunHost({
      dir,
      workflows: options.workflows,
      ...poll,
      ...(options.runOptions ? { runOptions: options.runOptions } : {}),
    });
  }
  return folderRunHost({ dir, ...poll });
}
