export { runWorkflow } from './run.js';
export { DEFAULT_ABORT_GRACE_MS, unstoppedWork } from './abort-grace.js';
export type { PendingWork } from './abort-grace.js';
export type {
  AnsweredBy,
  ApproveOptions,
  RunHandle,
  WorkflowRunOptions,
  RunResult,
} from './run.js';
export type { RunFork } from './workflow-run-options.js';
export type {
  RunOutput,
  RunOutputPicker,
  RunOutputSchema,
  RunResults,
} from './run-output-option.js';
export { inspect } from './inspect.js';
export type { InspectOptions, InspectReport, InspectedAgent, InspectedTool } from './inspect.js';
export type { CompositeToolResult } from './composite-tool.js';
