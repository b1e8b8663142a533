/**
 * June: AI agent workflows as JSX, run on the Vercel AI SDK.
 * @packageDocumentation
 */
export {
  Agent,
  Step,
  Tool,
  Inherit,
  Namespace,
  RequireApproval,
  Question,
  Guard,
  Budget,
  defineCapabilities,
} from './components/index.js';
export { answerQuestion, isQuestion } from './approvals/index.js';
export { defineAgent, DEFINED_AGENT_STEP_ID, Catch, Parallel } from './components/index.js';
export type { CatchProps, ParallelProps } from './components/index.js';
export { defineToolSource } from './resources/index.js';
export type {
  DefineToolSourceOptions,
  ToolSource,
  ToolSourceComponent,
  ToolSourceConnection,
} from './resources/index.js';
export { defineMCPServer } from './mcp/index.js';
export {
  fileJournalStore,
  memoryJournalStore,
  loadJournal,
  journalEngine,
  readRunJournal,
  decodeJournal,
  encodeRecord,
  JOURNAL_VERSION,
  JOURNAL_VERSIONS,
  journalRecordSchema,
  journalExists,
  forkPoints,
  runOwned,
  takeLease,
  thisProcessOwner,
  listThread,
  listThreads,
  deleteThread,
  threadConversation,
  threadBusy,
} from './journal/index.js';
export type {
  JournalStore,
  JournalRecord,
  JournalHeader,
  JournalPlace,
  FileJournalStoreOptions,
  MemoryJournalStore,
  JournalEngineOptions,
  JournalTraceContext,
  ModelCallRecord,
  ToolCallRecord,
  ApprovalRequestRecord,
  ApprovalAnswerRecord,
  ResumeRecord,
  RunFinishRecord,
  RecordedError,
  ForkedFrom,
  ForkChangeRecord,
  ForkPoint,
  RunLease,
  RunLeaseOptions,
  RunOwner,
  LeaseAttempt,
  ThreadRun,
  ThreadHistory,
  JournalThread,
  ThreadConversation,
} from './journal/index.js';
export { toolCallContext } from './engine/index.js';
export type { ToolCallContext } from './engine/index.js';
export type {
  MCPServerOptions,
  MCPHttpServerOptions,
  MCPStdioServerOptions,
  MCPToolSelection,
} from './mcp/index.js';
export type {
  DefineAgentOptions,
  DefinedAgent,
  ValueToolProps,
  CompositeToolProps,
  CompositeToolRunResult,
} from './components/index.js';
export type {
  AgentProps,
  CompactOptions,
  SdkTelemetrySetting,
  StepProps,
  StepContext,
  StepPrompt,
  ToolProps,
  InheritProps,
  NamespaceProps,
  RequireApprovalProps,
  QuestionProps,
  GuardProps,
  GuardAction,
  GuardDecision,
  GuardSubject,
  GuardCheck,
  GuardCheckKind,
  GuardJudge,
  BudgetProps,
  BudgetExceed,
  DefineCapabilitiesOptions,
} from './components/index.js';
export type {
  DurableEngine,
  DurableEngineFactory,
  DurableRunStart,
  DurableRunStatus,
  DurableThread,
  DurablePlace,
  ModelAnswer,
  ModelCallAt,
  ToolCallAt,
  ApprovalAnswer,
  ApprovalQuestion,
  OutsideAnswer,
} from './engine/index.js';
export { run, forkRun, forkOf, runForkPoints } from './run/index.js';
export type { RunOptions, Fork, ForkChange, ForkRunOptions } from './run/index.js';
export { inspect, DEFAULT_ABORT_GRACE_MS } from './interpreter/index.js';
export type {
  AnsweredBy,
  ApproveOptions,
  RunHandle,
  RunResult,
  RunOutput,
  RunOutputPicker,
  RunOutputSchema,
  RunResults,
  InspectOptions,
  InspectReport,
  InspectedAgent,
  InspectedTool,
  CompositeToolResult,
  RunFork,
} from './interpreter/index.js';
export {
  JuneError,
  WorkflowError,
  ModelBehaviorError,
  SystemError,
  RunAbortedError,
  juneErrorCodes,
} from './errors/index.js';
export type {
  CollidingDeclaration,
  DetailedErrorCode,
  JuneErrorBlame,
  JuneErrorCode,
  JuneErrorDetails,
  JuneErrorDetailsByCode,
} from './errors/index.js';
export type {
  AnswerOrigin,
  ApprovalAnswerResult,
  ApprovalDecision,
  ApprovalPolicy,
  ApprovalPolicyAnswer,
  ApprovalRequest,
  ApprovalSource,
  ApprovalSourceName,
  AskedQuestion,
  BudgetAsk,
  GivenAnswer,
  SettledAnswer,
  SourceDisconnect,
  SourceInbox,
} from './approvals/index.js';
export type {
  EventIdentity,
  RunConsumer,
  RunEvent,
  RunEventFields,
  RunEventKind,
  RunEventType,
  RunLogEvent,
  RunLogEventOf,
  RunLogEventType,
  RunOutcome,
} from './events/index.js';
export {
  applyEvent,
  isRunEventType,
  liveTrace,
  runEventKinds,
  runEventTypes,
  traceWriter,
} from './events/index.js';
export type { LiveTrace, RunTraceWriter, TraceWriterOptions } from './events/index.js';
export type { TelemetryContent } from './telemetry/span-attributes.js';
export type {
  PromptFile,
  Trace,
  TraceNode,
  TraceNodeKind,
  TraceStatus,
  TraceApproval,
  TraceCompaction,
  TraceBudget,
  TraceError,
  TraceForkedFrom,
  SubtreeCost,
} from './trace/index.js';
export { subtreeCost, formatUsd } from './trace/index.js';
export { modelPrice, callCost } from './models/price.js';
export type { ModelPrice, ModelPrices, PriceInput, PriceRate } from './models/price.js';
export type { CapabilityProvenance } from './capabilities/index.js';
export { Fragment, isElement } from './elements/index.js';
export type { Component, JuneElement, JuneNode, JSX } from './elements/index.js';
