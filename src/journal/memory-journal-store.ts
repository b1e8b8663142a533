import { decodeJournal, encodeRecord } from './journal-codec.js';
import { journalExists, type JournalStore } from './journal-store.js';
import { runOwned, takeLease, thisProcessOwner, type RunLease } from './run-lease.js';

/** A {@link JournalStore} in memory, with the text of each journal for inspection. */
export interface MemoryJournalStore extends JournalStore {
  /** The journal of `runId` as a JSON Lines file would hold it (`''` when there is none). */
  text(runId: string): string;
}

/**
 * A {@link JournalStore} that keeps journals in memory, encoded as the file store encodes
 * them (so a record read back is what a file would give). For tests, and for resuming within
 * one process. Its `lease` holds a run within this store: two runs of one id at once (two
 * resumes, or a resume of a run still running) get `run-owned`.
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
  const text = (runId: string) => (lines.get(runId) ?? []).map((line) => `${line}\n`).join('');
  const store: MemoryJournalStore = {
    async create(runId, header) {
      if (lines.has(runId)) throw journalExists(store, runId);
      lines.set(runId, [encodeRecord(header)]);
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
    text,
  };
  return store;
}
