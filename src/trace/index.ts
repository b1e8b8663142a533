export { TraceFileWriter } from './trace-file-writer.js';
export type { TraceFileWriterOptions } from './trace-file-writer.js';
export { traceFailures, traceFailureList } from './trace-failures.js';
export type { TraceFailure, TraceFailures } from './trace-failures.js';
export type {
  PromptFile,
  Trace,
  TraceApproval,
  TraceCompaction,
  TraceBudget,
  TraceError,
  TraceForkedFrom,
  TraceNode,
  TraceNodeKind,
  TraceStatus,
} from './trace-node.js';
export {
  TRACE_VERSIONS,
  traceNodeKinds,
  traceStatuses,
  traceNodeSchema,
  traceSchema,
} from './trace-schema.js';
export { childRunOf, modelOutputOf } from './composite-result.js';
export type { CompositeToolResult } from './composite-result.js';
export { subtreeCost, formatUsd, costText, callSpent, addCost, noCost } from './subtree-cost.js';
export type { SubtreeCost } from './subtree-cost.js';
