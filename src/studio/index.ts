// `june/studio`: start Studio from a program, and the shapes of its HTTP API. Its internals
// (the runs folder, trace files, the approval desk) are imported from their own files.
export { startStudio } from './start-studio.js';
export type { Studio, StudioOptions } from './start-studio.js';
export type {
  RunList,
  RunListEntry,
  RunSummary,
  StudioEvent,
  UnreadableRun,
} from '../host/run-list.js';
