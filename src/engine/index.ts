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
