export {
  IDEMPOTENCY_KEY,
  RUN_ID_KEY,
  serveWorkflows,
  type ServedMcp,
  type ServedWorkflow,
  type ServeOptions,
} from './serve-workflows.js';
