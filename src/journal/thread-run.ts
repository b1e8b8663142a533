export type { ThreadRun } from '../engine/thread-id.js';
