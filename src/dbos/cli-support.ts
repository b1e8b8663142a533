// What the CLI loads from june/dbos when a command needs a database (kept out of its startup).
export { startWorker } from './worker.js';
export { RunClient } from './run-client.js';
export { safeUrl } from './database-error.js';
export { notAppliedText } from './answer-result-text.js';
