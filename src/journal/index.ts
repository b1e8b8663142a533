export {
  JOURNAL_VERSION,
  JOURNAL_VERSIONS,
  journalRecordTypes,
  placeKey,
  toolKey,
  callIdOf,
  describePlace,
} from './journal-record.js';
export type {
  JournalRecord,
  JournalHeader,
  JournalPlace,
  ModelCallRecord,
  PromptBase,
  ToolCallRecord,
  ApprovalRequestRecord,
  ApprovalAnswerRecord,
  ResumeRecord,
  RunFinishRecord,
  RecordedError,
  JournalThread,
  ThreadConversation,
} from './journal-record.js';
export {
  listThread,
  listThreads,
  deleteThread,
  threadConversation,
  threadBusy,
  checkThreadId,
} from './thread.js';
export type { ThreadRun, ThreadHistory } from './thread.js';
export { encodeRecord, decodeJournal, revivedError } from './journal-codec.js';
export { journalRecordSchema, journalRecordProblem } from './journal-record-schema.js';
export { journalLabel, journalExists } from './journal-store.js';
export type { JournalStore } from './journal-store.js';
export { fileJournalStore, fileRunOwner } from './file-journal-store.js';
export { runOwned, ownerOfError, ownerText, thisProcessOwner, takeLease } from './run-lease.js';
export type { RunLease, RunLeaseOptions, RunOwner, LeaseAttempt } from './run-lease.js';
export type { FileJournalStoreOptions } from './file-journal-store.js';
export { memoryJournalStore } from './memory-journal-store.js';
export type { MemoryJournalStore } from './memory-journal-store.js';
export { loadJournal } from './load-journal.js';
export { readRunJournal } from './read-run-journal.js';
export { JournalIndex } from './journal-index.js';
export { firstRequestDifference } from '../engine/request-difference.js';
export { upgradeJournal } from './journal-upgrade.js';
export {
  journalMismatch,
  journalCallMissing,
  journalCallChanged,
} from '../engine/journal-mismatch.js';
export { RunJournal, journalEngine } from './run-journal.js';
export type {
  RunJournalOptions,
  JournalEngineOptions,
  JournalTraceContext,
} from './run-journal.js';
export type { ReplayOf } from '../engine/journal-mismatch.js';
export { forkPoints, findForkPoint, forkJournal, redactedPaths } from './fork-journal.js';
export type {
  ForkedFrom,
  ForkChangeRecord,
  ForkPoint,
  ForkableRecord,
  ForkJournalOptions,
} from './fork-journal.js';
