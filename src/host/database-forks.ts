import type { DbosFork, DbosForkOptions } from '../dbos/index.js';
import type { ForkPoint } from '../run/fork-run.js';

/** Forks of runs over a database (`june fork --database`), through a `RunClient` of their own. */
export interface DatabaseForks {
  /** The records the run may be forked at (`RunClient.forkPoints`). */
  points(runId: string): Promise<ForkPoint[]>;
  /** The ids of the newest `limit` runs, newest first (`RunClient.list`). */
  newest(limit: number): Promise<string[]>;
  /** Forks the run and enqueues the fork (`RunClient.fork`). */
  fork(runId: string, options: DbosForkOptions): Promise<DbosFork>;
  close(): Promise<void>;
}

/**
 * Connects to the database of runs `database` to fork its runs.
 * @throws {SystemError} `dbos-missing`, `database-unreachable`, `database-auth-failed`
 */
export async function databaseForks(database: string): Promise<DatabaseForks> {
  const { RunClient } = await import('../dbos/index.js');
  const client = await RunClient.connect(database);
  return {
    points: (runId) => client.forkPoints(runId),
    newest: async (limit) => (await client.list({ limit })).map((run) => run.runId),
    fork: (runId, options) => client.fork(runId, options),
    close: () => client.close(),
  };
}
