/**
 * One run of a thread, as `listThread` lists it: its id, its place in the thread (1, 2, ...)
 * and when it started (ISO 8601).
 */
export interface ThreadRun {
  runId: string;
  order: number;
  startedAt: string;
}
