import { kindOf } from '../elements/builtin.js';
import { flattenChildren } from '../elements/children.js';
import type { JuneElement, JuneNode } from '../elements/element.js';
import { isCapabilityElement, capabilityNotation } from '../capabilities/collect.js';
import { locationSuffix } from '../elements/notation.js';
import { WorkflowError } from '../errors/june-error.js';
import { guardEntry } from './guard-entry.js';
import { guardsOf, type EvalContext } from './run-state.js';

type Evaluate = (node: JuneNode, ctx: EvalContext) => Promise<void>;

/**
 * Evaluates a `<Guard>`'s children with the guard added, innermost last, to the guards over
 * them: every step beneath it (in nested agents, and through the calls its steps make, in
 * composite tools' and defined agents' child runs) is checked by it.
 *
 * @throws {WorkflowError} `guard-invalid` (see {@link guardEntry}); `guard-content-invalid`
 *   when it holds a capability (a guard covers agents and steps; it is not a wrapper).
 */
export async function evaluateGuard(
  element: JuneElement,
  ctx: EvalContext,
  evaluate: Evaluate,
): Promise<void> {
  const entry = guardEntry(element);
  const children = (element.props as { children?: JuneNode }).children;
  for (const child of flattenChildren(children)) {
    if (
      typeof child !== 'string' &&
      kindOf(child.type) !== 'guard' &&
      kindOf(child.type) !== 'budget' &&
      isCapabilityElement(child)
    )
      throw new WorkflowError(
        'guard-content-invalid',
        `june: ${entry.where} holds ${capabilityNotation(child)}${locationSuffix(child.source)}, but a guard is not a capability wrapper: it covers agents and steps and everything they call. Put the <Guard> around the <Agent>, or use <RequireApproval> around the tool.`,
      );
  }
  await evaluate(children, { ...ctx, guards: [...guardsOf(ctx), entry] });
}
