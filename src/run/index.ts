export { run } from './run.js';
export type { RunOptions } from './run.js';
export { forkRun, forkOf, runForkPoints } from './fork-run.js';
export type { Fork, ForkChange, ForkRunOptions } from './fork-run.js';
