export { startStudio } from './start-studio.js';
export type { Studio, StudioOptions } from './start-studio.js';
export { isUnreadable } from './studio-api.js';
export type {
  RunList,
  RunListEntry,
  RunSummary,
  StudioEvent,
  UnreadableRun,
} from './studio-api.js';
export { RunDirectory } from './run-directory.js';
export type { RunDirectoryOptions, TraceLookup } from './run-directory.js';
export { readTraceFile } from './read-trace-file.js';
export type { TraceFileContent } from './read-trace-file.js';
export { traceProblem } from './trace-problem.js';
export { childTraceOf } from './child-trace.js';
export { nodeTokens, totalTokens } from './total-tokens.js';
export { summarizeTrace } from './summarize-trace.js';
