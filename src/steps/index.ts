export { runStep } from './run-step.js';
export type { PendingToolApproval, StepRunInput, StepRunOutput } from './run-step.js';
