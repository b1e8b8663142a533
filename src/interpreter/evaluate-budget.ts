import { kindOf } from '../elements/builtin.js';
import { flattenChildren } from '../elements/children.js';
import type { JuneElement, JuneNode } from '../elements/element.js';
import { isCapabilityElement, capabilityNotation } from '../capabilities/collect.js';
import { locationSuffix } from '../elements/notation.js';
import { WorkflowError } from '../errors/june-error.js';
import { budgetEntry } from './budget-entry.js';
import { guardsOf, type EvalContext } from './run-state.js';

type Evaluate = (node: JuneNode, ctx: EvalContext) => Promise<void>;

/**
 * Evaluates a `<Budget>`'s children with the budget added, innermost last, to the policies
 * over them (the list the guards travel in): every model call beneath it (nested agents',
 * composite tools' and defined agents' child runs, guards' judges) counts toward it and is
 * checked against it before it starts.
 *
 * @throws {WorkflowError} `budget-invalid` (see {@link budgetEntry}); `budget-content-invalid`
 *   when it holds a capability (a budget covers agents and steps; it is not a wrapper).
 */
export async function evaluateBudget(
  element: JuneElement,
  ctx: EvalContext,
  evaluate: Evaluate,
): Promise<void> {
  const entry = budgetEntry(element);
  const children = (element.props as { children?: JuneNode }).children;
  for (const child of flattenChildren(children)) {
    const kind = typeof child === 'string' ? undefined : kindOf(child.type);
    if (
      typeof child !== 'string' &&
      kind !== 'guard' &&
      kind !== 'budget' &&
      isCapabilityElement(child)
    )
      throw new WorkflowError(
        'budget-content-invalid',
        `june: ${entry.where} holds ${capabilityNotation(child)}${locationSuffix(child.source)}, but a budget is not a capability wrapper: it caps the model calls of the agents and steps beneath it. Put the <Budget> around the <Agent>.`,
      );
  }
  await evaluate(children, { ...ctx, guards: [...guardsOf(ctx), entry] });
}
