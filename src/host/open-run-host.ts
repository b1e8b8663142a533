import { folderRunHost } from './folder-run-host.js';
import type { RunHost } from './run-host.js';

/** Options of {@link openRunHost}: where the runs live, a folder or a database. */
export interface RunHostOptions {
  /** The runs folder (`june run` writes `<project>/.june/runs`). @default ".june/runs", when no `database` */
  dir?: string;
  /** A PostgreSQL URL of runs over DBOS (`--database`): the database's runs instead of a folder's. Needs `@dbos-inc/dbos-sdk`. */
  database?: string;
  /** How often to look at the folder (or read the database's list) even when nothing reported a change, in ms. @default 1000 */
  pollIntervalMs?: number;
}

/**
 * The run host the options name, and the one place that decides where runs live: the
 * database `database` when given (`databaseRunHost`; `dir` is then not read), else the
 * folder `dir` (`folderRunHost`). Every
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
  return folderRunHost({ dir: options.dir ?? '.june/runs', ...poll });
}
