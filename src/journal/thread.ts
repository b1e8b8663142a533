import { hostname } from 'node:os';
import { SystemError, WorkflowError } from '../errors/june-error.js';
import { checkThreadId, type ThreadHistory } from '../engine/thread-id.js';
import type { JournalHeader, ThreadConversation } from './journal-record.js';
import type { JournalStore } from './journal-store.js';
import { ownerText, type RunLeaseOptions, type RunOwner } from './run-lease.js';

import type { ThreadRun } from './thread-run.js';

export type { ThreadRun, ThreadHistory };
export { checkThreadId };

/**
 * The error of a thread that a run holds (code `thread-busy`): it names the thread, the run
 * holding it and that run's process, and carries them as `runId` and `owner`; with no
 * `runId`, the process that holds it without a run (deleting the thread), and what to wait for.
 *
 * @example
 * ```ts
 * throw threadBusy('support-ana', '20261130-120301-3fa94c1e27b0', owner);
 * ```
 */
export function threadBusy(
  threadId: string,
  runId: string | undefined,
  owner: RunOwner,
  where?: string,
): SystemError {
  const gone =
    where && owner.hostname !== hostname()
      ? ` If that process is gone, its hold lapses a minute after its last sign of life; or remove ${where}.`
      : '';
  // a run holds the thread while it runs; `deleteThread` holds it with no run while it deletes
  const held =
    runId !== undefined
      ? `run ${runId} of it is running in ${ownerText(owner)}; a thread runs one run at a time, so its conversation never interleaves. Wait for that run to end, or stop it first; a new run waits for it with june run --wait-for-owner (run(..., { waitForOwner: true }) in code).`
      : `${ownerText(owner)} holds it without a run of it, as deleting the thread does (june threads delete); try again once it lets go; a new run waits for it with june run --wait-for-owner (run(..., { waitForOwner: true }) in code).`;
  const error = new SystemError('thread-busy', `june: thread ${threadId} is busy: ${held}${gone}`);
  return Object.assign(error, { owner, ...(runId !== undefined ? { runId } : {}) });
}

/**
 * The options of a thread's hold whose `onWait` is told, besides the process, the run that
 * holds the thread (`holder()`, read when the hold turns out to be taken).
 */
export function waitNamingHolder(
  options: RunLeaseOptions | undefined,
  holder: () => string | undefined,
): RunLeaseOptions | undefined {
  const onWait = options?.onWait;
  return onWait ? { ...options, onWait: (owner: RunOwner) => onWait(owner, holder()) } : options;
}

/**
 * The runs of a thread in `store`, in their order (oldest first); `[]` for a thread with
 * none. A store with an index of its threads (`fileJournalStore`, `memoryJournalStore`)
 * answers from it; any other store's journals are read, header by header.
 *
 * @throws {WorkflowError} `thread-id-invalid`
 * @example
 * ```ts
 * await listThread(fileJournalStore(), 'support-ana');
 * // [{ runId: '20261207-120301-3fa94c1e27b0', order: 1, startedAt: '2026-12-07T12:03:01.000Z' }, ...]
 * ```
 */
export async function listThread(store: JournalStore, threadId: string): Promise<ThreadRun[]> {
  checkThreadId(threadId);
  if (store.listThread) return store.listThread(threadId);
  const runs = (await scanHeaders(store)).flatMap((header) =>
    header.thread?.id === threadId
      ? [{ runId: header.runId, order: header.thread.order, startedAt: header.startedAt }]
      : [],
  );
  return runs.sort((a, b) => a.order - b.order);
}

/**
 * The ids of the threads with a run in `store`, sorted.
 *
 * @example
 * ```ts
 * await listThreads(fileJournalStore()); // ['support-ana', 'support-ben']
 * ```
 */
export async function listThreads(store: JournalStore): Promise<string[]> {
  if (store.listThreads) return store.listThreads();
  const ids = new Set<string>();
  for (const header of await scanHeaders(store)) if (header.thread) ids.add(header.thread.id);
  return [...ids].sort();
}

/**
 * Deletes a thread from `store`: its runs' journals (with them, their replay, resume and
 * fork) and the thread's index, so its conversation is gone and a next run of the thread
 * id starts a new conversation. Refused while a run of the thread runs.
 *
 * @returns the runs deleted, in order.
 * @throws {WorkflowError} `thread-id-invalid`; `thread-unsupported` for a store that
 *   cannot delete a thread (no `deleteThread`).
 * @throws {SystemError} `thread-busy` while a run of the thread holds it.
 * @example
 * ```ts
 * await deleteThread(fileJournalStore(), 'support-ana'); // [{ runId: '…', order: 1, … }, …]
 * ```
 */
export async function deleteThread(store: JournalStore, threadId: string): Promise<ThreadRun[]> {
  checkThreadId(threadId);
  if (!store.deleteThread)
    throw new WorkflowError(
      'thread-unsupported',
      'june: this journal store cannot delete a thread (it has no deleteThread); use fileJournalStore() or memoryJournalStore(), or delete its runs in the store yourself.',
    );
  return store.deleteThread(threadId);
}

/**
 * What a run of a thread starts from: the conversation left by the thread's newest run
 * (before order `before`, when given) that left one, i.e. whose thread agent finished. A
 * run that failed or was stopped before its agent finished leaves none, and the thread goes
 * on from the run before it.
 *
 * @example
 * ```ts
 * const { messages } = await threadConversation(store, 'support-ana');
 * ```
 */
export async function threadConversation(
  store: JournalStore,
  threadId: string,
  before?: number,
): Promise<ThreadHistory> {
  const runs = (await listThread(store, threadId)).filter(
    (run) => before === undefined || run.order < before,
  );
  for (const run of runs.reverse()) {
    const conversation = lastConversation(await store.read(run.runId));
    if (conversation)
      return { messages: conversation.messages, agent: conversation.agent, runId: run.runId };
  }
  return { messages: [] };
}

function lastConversation(records: readonly { type: string }[]): ThreadConversation | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i] as { type: string; conversation?: ThreadConversation };
    if (record.type === 'run-finish' && record.conversation) return record.conversation;
  }
  return undefined;
}

async function scanHeaders(store: JournalStore): Promise<JournalHeader[]> {
  const headers: JournalHeader[] = [];
  for (const runId of await store.list()) {
    const [first] = await store.read(runId).catch(() => []);
    if (first?.type === 'journal') headers.push(first);
  }
  return headers;
}
