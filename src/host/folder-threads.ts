import { join, resolve } from 'node:path';
import { fileJournalStore } from '../journal/file-journal-store.js';
import {
  deleteThread,
  listThread,
  listThreads,
  threadConversation,
  type ThreadHistory,
  type ThreadRun,
} from '../journal/thread.js';
import { readTraceFile } from './read-trace-file.js';
import type { RunHost } from './run-host.js';
import { runState, type RunState } from './run-state.js';

/** A run of a thread as `june threads show` lists it: its place, id, start and state. */
export interface ThreadRunEntry extends ThreadRun {
  /** The run's state from its trace; `unknown` without a trace (a run `june run` did not start). */
  state: RunState | 'unknown';
}

/** A thread of a runs folder: its id, its runs in order, and the conversation it goes on from. */
export interface FolderThread {
  id: string;
  runs: ThreadRunEntry[];
  conversation: ThreadHistory;
}

/**
 * The threads of a runs folder (`.june/runs`), as `june threads` reads and deletes them:
 * through the folder's journal store, with each run's state from its trace file.
 *
 * @example
 * ```ts
 * const threads = folderThreads('.june/runs');
 * await threads.list(); // ['support-ana']
 * (await threads.show('support-ana')).runs; // [{ order: 1, runId: '…', state: 'succeeded', … }]
 * ```
 */
export function folderThreads(dir: string) {
  const folder = resolve(dir);
  const store = fileJournalStore({ dir: folder });
  const stateOf = async (runId: string): Promise<RunState | 'unknown'> => {
    const read = await readTraceFile(join(folder, `${runId}.json`)).catch(() => undefined);
    return read && 'trace' in read ? runState(read.trace) : 'unknown';
  };
  return {
    /** The thread ids, sorted. */
    list: () => listThreads(store),
    /** A thread's runs in order with their states, and the conversation its next run starts from. */
    async show(threadId: string): Promise<FolderThread> {
      const runs = await listThread(store, threadId);
      return {
        id: threadId,
        runs: await Promise.all(
          runs.map(async (run) => ({ ...run, state: await stateOf(run.runId) })),
        ),
        conversation: await threadConversation(store, threadId),
      };
    },
    /** Deletes a thread: its runs' journals and traces, and its index (`thread-busy` while one runs). */
    delete: (threadId: string) => deleteThread(store, threadId),
  };
}

/**
 * A runs folder host's thread reads (`RunHost.threadRuns` and `threadMessages`), through the
 * folder's journal store.
 */
export function folderThreadReads(dir: string): Pick<RunHost, 'threadRuns' | 'threadMessages'> {
  const store = () => fileJournalStore({ dir });
  return {
    threadRuns: (threadId) => listThread(store(), threadId),
    threadMessages: async (threadId) => (await threadConversation(store(), threadId)).messages,
  };
}
