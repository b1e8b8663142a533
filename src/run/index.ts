export { run } from './run.js';
export type { RunOptions } from './run.js';
