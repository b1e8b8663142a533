import type { RunClient } from '../dbos/index.js';
import type { FolderThread } from './folder-threads.js';
import type { RunState } from './run-state.js';

/**
 * The threads of a database of runs (`june.threads`), as `june threads --database` reads and
 * deletes them: through a `RunClient`, with each run's state from the database. `close` lets
 * go of the connection.
 *
 * @throws {SystemError} `dbos-missing` without `@dbos-inc/dbos-sdk`; `database-unreachable`,
 *   `database-auth-failed` for a database it cannot use.
 * @example
 * ```ts
 * const threads = await databaseThreads('postgres://localhost/june');
 * await threads.list(); // ['support-ana']
 * ```
 */
export async function databaseThreads(database: string) {
  const { RunClient } = await import('../dbos/cli-support.js');
  const client: RunClient = await RunClient.connect(database);
  return {
    /** The thread ids, sorted. */
    list: () => client.listThreads(),
    /** A thread's runs in order with their states, and the conversation its next run starts from. */
    async show(threadId: string): Promise<FolderThread> {
      const runs = await client.listThread(threadId);
      return {
        id: threadId,
        runs: await Promise.all(
          runs.map(async (run) => {
            const summary = await client.get(run.runId).catch(() => undefined);
            return { ...run, state: summary ? stateOf(summary) : ('unknown' as const) };
          }),
        ),
        conversation: await client.threadConversation(threadId),
      };
    },
    /** Deletes a thread: its runs in the database (`thread-busy` while one is queued or runs). */
    delete: (threadId: string) => client.deleteThread(threadId),
    close: () => client.close(),
  };
}

/** A database run's state as a runs folder's run shows it. */
function stateOf(run: { status: string; waiting: unknown[] }): RunState {
  if (run.status === 'cancelled') return 'aborted';
  if (run.status === 'succeeded' || run.status === 'failed') return run.status;
  return run.waiting.length > 0 ? 'waiting' : 'running';
}
