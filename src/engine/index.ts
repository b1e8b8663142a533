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
} from './durable-engine.js';
export { DurableCalls } from './durable-calls.js';
export type { ApprovalAsking, StepApprovalRequest } from './durable-calls.js';
export { durableTools, toolCallTools, compositeToolMarker } from './durable-tools.js';
export type { ToolCallMaker } from './durable-tools.js';
export { stepToolApproval } from './tool-approval.js';
export { ToolFailure, thrownByTool, withToolFailures } from './tool-failure.js';
export type { ApprovalDecider, StepToolApproval } from './tool-approval.js';
export { recordedExecution } from './recorded-execution.js';
export { placeKey, callIdOf } from './durable-place.js';
export { CallIds } from './call-ids.js';
export { RUN_ID_PATTERN, isRunId, newRunId } from './run-id.js';
export { toolCallContext, inToolCall } from './tool-call-context.js';
export type { ToolCallContext } from './tool-call-context.js';
export { journalMismatch, journalCallMissing, journalCallChanged } from './journal-mismatch.js';
export type { ReplayOf } from './journal-mismatch.js';
export { firstRequestDifference } from './request-difference.js';
