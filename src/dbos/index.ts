// `june/dbos`: workers that run workflows from a PostgreSQL database, and the client that
// enqueues, follows and answers their runs. The engine, the registered workflow and the
// queue's names are internals, imported from their own files.
export { startWorker } from './worker.js';
export type { WorkerOptions, JuneWorker, WorkerStopped } from './worker.js';
export type { WorkerLogLevel } from './worker-log.js';
export { RunClient } from './run-client.js';
export type {
  DbosAnswer,
  DbosAnswerResult,
  DbosFork,
  DbosForkOptions,
  DbosRunStatus,
  DbosRunSummary,
  RunClientOptions,
  RunEnqueueOptions,
} from './run-client.js';
export type { DbosApprovalRequest } from './dbos-engine.js';
export type { DbosRunOutput, WorkerWorkflow } from './run-workflow.js';
export type { RunToEnqueue, QueuedRedaction } from './queued-run.js';
export type { StreamedRunEvents } from './event-publisher.js';
