// What one round of a step gives back, in a file of its own (see step-run-input.ts).
import type { LanguageModelUsage, ModelMessage, StepResult, ToolSet } from 'ai';
import type { PendingToolApproval, StepRunInput } from './step-run-input.js';

/**
 * What the end of a round gives that a step reads: every message the round added (all its
 * model calls, not only the last one's), its usage summed over them, the last call's text.
 */
export type StepFinish = {
  responseMessages: ModelMessage[];
  usage: LanguageModelUsage;
  text: string;
  steps: Array<StepResult<ToolSet>>;
};

/** What each round of a step gets: the step's input, its model wrapped once for the step. */
export type RoundInput = StepRunInput;

/** One call of the AI SDK's tool loop within a step: what it finished with, the approvals it asks for, its parsed `output`. */
export interface StepRound {
  approvals: PendingToolApproval[];
  done: StepFinish;
  output: () => PromiseLike<unknown>;
}
