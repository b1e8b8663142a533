import { decodeJournal, encodeRecord } from './journal-codec.js';
import { journalExists, type JournalStore } from './journal-store.js';
import {
  runOwned,
  takeLease,
  thisProcessOwner,
  type RunLease,
  type RunLeaseOptions,
} from './run-lease.js';
import { checkThreadId, threadBusy, waitNamingHolder } from './thread.js';
import type { ThreadRun } from './thread-run.js';

/** A {@link JournalStore} in memory, with the text of each journal for inspection. */
export interface MemoryJournalStore extends JournalStore {
  /** The journal of `runId` as a JSON Lines file would hold it (`''` when there is none). */
  text(runId: string): string;
}

/**
 * A {@link JournalStore} that keeps journals in memory, encoded as the file store encodes
 * them (so a record read back is what a file would give). For tests, and for resuming within
 * one process. Its `lease` holds a run within this store: two runs of one id at once (two
 * resumes, or a resume of a run still running) get `run-owned`. It keeps an index of its
 * threads, and its `threadLease` holds a thread within this store (`thread-busy`).
 *
 * @example
 * ```ts
 * const store = memoryJournalStore();
 * const first = run(<Release />, { journal: store });
 * // ... abort it while it waits for approval, then:
 * const again = run(<Release />, { journal: store, resume: first.runId, onApproval: () => true });
 * ```
 */
export function memoryJournalStore(): MemoryJournalStore {
  const lines = new Map<string, string[]>();
  const owners = new Map<string, RunLease>();
  const threads = memoryThreads(lines);
  const text = (runId: string) => (lines.get(runId) ?? []).map((line) => `${line}\n`).join('');
  const store: MemoryJournalStore = {
    async create(runId, header) {
      if (lines.has(runId)) throw journalExists(store, runId);
      lines.set(runId, [encodeRecord(header)]);
      if (header.thread)
        threads.add(header.thread.id, {
          runId,
          order: header.thread.order,
          startedAt: header.startedAt,
        });
    },
    async append(runId, record) {
      const list = lines.get(runId) ?? [];
      list.push(encodeRecord(record));
      lines.set(runId, list);
    },
    read: async (runId) => decodeJournal(text(runId), `the journal of run ${runId}`),
    list: async () => [...lines.keys()].sort(),
    lease: (runId, options) =>
      takeLease(
        async () => {
          const held = owners.get(runId);
          if (held) return { owner: held.owner };
          const lease: RunLease = {
            runId,
            owner: thisProcessOwner(),
            release: async () => {
              if (owners.get(runId) === lease) owners.delete(runId);
            },
          };
          owners.set(runId, lease);
          return { lease };
        },
        (owner) => runOwned(runId, owner),
        options,
      ),
    threadLease: threads.lease,
    listThread: threads.list,
    listThreads: threads.ids,
    deleteThread: threads.remove,
    text,
  };
  return store;
}

/** The threads of a memory store: their indexes and leases; deleting one drops its runs' `lines`. */
function memoryThreads(lines: Map<string, string[]>) {
  const threads = new Map<string, ThreadRun[]>();
  const owners = new Map<string, RunLease>();
  const list = async (threadId: string) => {
    checkThreadId(threadId);
    return [...(threads.get(threadId) ?? [])].sort((a, b) => a.order - b.order);
  };
  const lease = (threadId: string, runId: string, options?: RunLeaseOptions) => {
    checkThreadId(threadId);
    let holder: string | undefined;
    return takeLease(
      async () => {
        const held = owners.get(threadId);
        if (held) {
          holder = held.runId || undefined;
          return { owner: held.owner };
        }
        const taken: RunLease = {
          runId,
          owner: thisProcessOwner(),
          release: async () => {
            if (owners.get(threadId) === taken) owners.delete(threadId);
          },
        };
        owners.set(threadId, taken);
        return { lease: taken };
      },
      (owner) => threadBusy(threadId, holder, owner),
      waitNamingHolder(options, () => holder),
    );
  };
  return {
    lease,
    list,
    ids: async () => [...threads.keys()].sort(),
    add(threadId: string, run: ThreadRun) {
      threads.set(threadId, [...(threads.get(threadId) ?? []), run]);
    },
    async remove(threadId: string): Promise<ThreadRun[]> {
      const held = await lease(threadId, '');
      try {
        const runs = await list(threadId);
        for (const run of runs) lines.delete(run.runId);
        threads.delete(threadId);
        return runs;
      } finally {
        await held.release();
      }
    },
  };
}
