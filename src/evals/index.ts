/**
 * `june/evals`: score a workflow over a dataset with a vitest-based eval runner (evalite):
 * a workflow as an eval task, datasets as JSON Lines, scorers that read the run's trace, and
 * a comparison of two eval runs. See docs/evals.md.
 * @packageDocumentation
 */
export { workflowTask } from './workflow-task.js';
export type { WorkflowTaskOptions } from './workflow-task.js';
export type { WorkflowEvalOutput, EvalModelSource } from './eval-output.js';
export type {
  EvalCase,
  EvalCaseInput,
  EvalApprove,
  EvalFork,
  JuneExpectations,
} from './eval-case.js';
export { loadDataset } from './load-dataset.js';
export type { LoadDatasetOptions } from './load-dataset.js';
export { studioRunUrl, DEFAULT_STUDIO_URL } from './studio-link.js';
export { toolCallsIn, childRunsIn, modelCallsIn } from './trace-facts.js';
export type { EvalToolCall } from './trace-facts.js';
export { questionsIn } from './question-facts.js';
export type { EvalQuestion } from './question-facts.js';
export type { JuneScorer, JuneScore, JuneScoreInput } from './june-scorer.js';
export { toolsCalled, toolsNotCalled, approvalsAsked, denials } from './tool-scorers.js';
export { childRuns, tokensWithin, stepsWithin, noErrors } from './run-scorers.js';
export { guardDecisions, guardDecisionsIn } from './guard-scorers.js';
export type { EvalGuardDecision, GuardDecisionCounts } from './guard-scorers.js';
export { juneColumns } from './eval-columns.js';
export type { EvalColumn, EvalColumnInput } from './eval-columns.js';
export { readEvalResults, compareEvalResults, formatEvalComparison } from './compare-results.js';
export type {
  EvalResults,
  EvalChange,
  EvalCaseRef,
  EvalComparison,
  CompareEvalOptions,
} from './compare-results.js';
