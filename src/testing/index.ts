export { scriptedModel } from './scripted-model.js';
export type {
  ScriptedModel,
  ScriptedModelOptions,
  ScriptedCall,
  ScriptedTurnRef,
} from './scripted-model.js';
export { loadScript } from './load-script.js';
export { modelScriptSchema } from './script-format.js';
export type { ModelScript, ScriptTurn, ScriptToolCall, ScriptUsage } from './script-format.js';
export { mockUsage } from './mock-usage.js';
export { scriptAfterJournal } from './script-after-journal.js';
export {
  fileJournalStore,
  memoryJournalStore,
  loadJournal,
  readRunJournal,
  decodeJournal,
  encodeRecord,
  JOURNAL_VERSION,
  JOURNAL_VERSIONS,
  journalRecordSchema,
  journalExists,
  runOwned,
  takeLease,
  thisProcessOwner,
} from '../journal/index.js';
export type {
  JournalStore,
  JournalRecord,
  JournalHeader,
  JournalPlace,
  FileJournalStoreOptions,
  MemoryJournalStore,
  ModelCallRecord,
  ToolCallRecord,
  ApprovalRequestRecord,
  ApprovalAnswerRecord,
  ResumeRecord,
  RunFinishRecord,
  RecordedError,
  RunLease,
  RunLeaseOptions,
  RunOwner,
  LeaseAttempt,
} from '../journal/index.js';
