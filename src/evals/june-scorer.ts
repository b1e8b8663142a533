import type { WorkflowEvalOutput } from './eval-output.js';

/** What a scorer is given for one case, as evalite passes it: the case's input, the task's output, its expectations. */
export interface JuneScoreInput {
  input?: unknown;
  output: WorkflowEvalOutput;
  expected?: unknown;
}

/** A score from 0 (worst) to 1 (best), with what it was based on (shown in evalite's UI). */
export interface JuneScore {
  score: number;
  metadata?: Record<string, unknown>;
}

/**
 * A scorer in the shape evalite takes in `scorers` (its `ScorerOpts`: `name`, `description`,
 * `scorer`), reading a {@link WorkflowEvalOutput}. Plain data and a function, so it also
 * runs on its own: `toolsCalled(['deploy']).scorer({ output })`.
 */
export interface JuneScorer {
  name: string;
  description: string;
  scorer: (input: JuneScoreInput) => JuneScore;
}
