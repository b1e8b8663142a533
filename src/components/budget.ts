import { builtin } from '../elements/builtin.js';
import type { JuneNode } from '../elements/element.js';

/** What a {@link Budget} does when a model call would start past its cap. */
export type BudgetExceed = 'ask' | 'fail';

/** Props of {@link Budget}. */
export interface BudgetProps {
  /** Names the budget in requests, errors and traces: letters, digits, `-` and `_`. */
  name?: string;
  /** The most tokens (input and output) the model calls beneath it may spend. */
  tokens?: number;
  /** The most US dollars the model calls beneath it may cost (their models need a price). */
  usd?: number;
  /**
   * When a model call would start past the cap: `'ask'` (default) asks a person through the
   * run's inbox to allow one more budget's worth (the budget's own `tokens` and `usd` again);
   * `'fail'` fails the run with `budget-exceeded`.
   */
  onExceed?: BudgetExceed;
  /** The part of the workflow it caps: agents, steps, components, guards, other budgets. */
  children?: JuneNode;
}

/**
 * A spending cap over everything beneath it in the tree: every model call of its steps,
 * nested agents', composite tools' and defined agents' child runs, and guards' judges,
 * counted in tokens and, with a price, in USD. Before each model call the budgets over it
 * are checked: a call that would start past a cap waits for a person to allow more
 * (`onExceed="ask"`, the default), or fails the run (`onExceed="fail"`). A call in flight
 * finishes. Nested budgets all apply, outer first. See docs/budgets.md.
 *
 * @throws {WorkflowError} `budget-invalid` without `tokens` or `usd`, or with one that is not
 *   a positive number.
 * @example
 * ```tsx
 * <Budget name="research" tokens={200_000} usd={0.5}>
 *   <Agent model={model}>...</Agent>
 * </Budget>
 * ```
 */
export const Budget = builtin('budget', 'Budget', (_props: BudgetProps): JuneNode => null);
