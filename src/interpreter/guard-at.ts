import type { DurablePlace } from '../engine/durable-engine.js';
import type { RunFrame } from './run-state.js';
import type { RunServices } from './run-services.js';
import type { BudgetEntry } from './budget-entry.js';

/** Where a decision is made: the run, the step, and the record's place and call id. */
export interface GuardAt {
  services: RunServices;
  run: RunFrame;
  place: DurablePlace;
  /** The decision record's call id at `place` (`go#0.1~guards`, `go~output.0`). */
  call: string;
  /** The provider's call id of a tool call; for a step, `call`. */
  toolCallId: string;
  signal: AbortSignal;
  /** The budgets over the step, outermost first: they cap a judge's model calls. */
  budgets?: readonly BudgetEntry[];
  /** The step's trace node, where a budget's request shows. */
  stepNode?: string;
}
