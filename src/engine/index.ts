export type {
  DurableEngine,
  DurableEngineFactory,
  DurableRunStart,
  DurableRunStatus,
  DurablePlace,
  ModelAnswer,
  ModelCallAt,
  ToolCallAt,
  ApprovalAnswer,
  ApprovalQuestion,
} from './durable-engine.js';
export { DurableCalls } from './durable-calls.js';
export type { ApprovalAsking, StepApprovalRequest } from './durable-calls.js';
export { durableModelMiddleware } from './durable-model.js';
export type { ModelCallMaker } from './durable-model.js';
export { durableTools, toolCallTools, compositeToolMarker } from './durable-tools.js';
export type { ToolCallMaker } from './durable-tools.js';
export { recordedExecution } from './recorded-execution.js';
export { recordedAnswer } from './recorded-answer.js';
export { placeKey, callIdOf } from './durable-place.js';
export { CallIds, toolCallsOf } from './call-ids.js';
export type { AskedToolCall } from './call-ids.js';
export { modelRequestOf, hashModelRequest, stableJson } from './model-request.js';
export { RUN_ID_PATTERN, isRunId, newRunId } from './run-id.js';
export { toolCallContext, inToolCall } from './tool-call-context.js';
export type { ToolCallContext } from './tool-call-context.js';
