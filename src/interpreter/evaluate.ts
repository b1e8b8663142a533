import { kindOf, displayNameOf } from '../elements/builtin.js';
import { flattenChildren } from '../elements/children.js';
import type { JuneElement, JuneNode } from '../elements/element.js';
import { locationSuffix } from '../elements/notation.js';
import { capabilityNotation } from '../capabilities/collect.js';
import { RunAbortedError, WorkflowError } from '../errors/june-error.js';
import type { EvalContext } from './run-state.js';
import { evaluateAgent } from './evaluate-agent.js';
import { evaluateStep } from './evaluate-step.js';
import { evaluateCatch } from './evaluate-catch.js';
import { evaluateGuard } from './evaluate-guard.js';
import { evaluateParallel } from './evaluate-parallel.js';
import { evaluateBudget } from './evaluate-budget.js';

/**
 * Evaluates nodes depth first, in document order: agents open scopes, steps run, user
 * components render and what they return is evaluated where they stand.
 *
 * @throws {WorkflowError} `capability-in-component`, `capability-outside-agent`,
 *   `inherit-outside-agent`, `text-outside-step`, and whatever agents and steps throw.
 * @throws {RunAbortedError} when the run is aborted.
 */
export async function evaluate(node: JuneNode, ctx: EvalContext): Promise<void> {
  for (const child of flattenChildren(node)) {
    if (ctx.run.signal.aborted) throw new RunAbortedError(ctx.run.signal.reason);
    if (typeof child === 'string') {
      throw new WorkflowError(
        'text-outside-step',
        `june: the text ${JSON.stringify(child)} stands in the workflow${ctx.renderedBy ? ` (rendered by ${ctx.renderedBy})` : ''}; text belongs in a <Step prompt>.`,
      );
    }
    await evaluateElement(child, ctx);
  }
}

async function evaluateElement(element: JuneElement, ctx: EvalContext): Promise<void> {
  const kind = kindOf(element.type);
  switch (kind) {
    case 'fragment':
      return evaluate((element.props as { children?: JuneNode }).children, ctx);
    case 'agent':
      return evaluateAgent(element, ctx, evaluate);
    case 'step':
      return evaluateStep(element, ctx, evaluate);
    case 'catch':
      return evaluateCatch(element, ctx, evaluate);
    case 'guard':
      return evaluateGuard(element, ctx, evaluate);
    case 'parallel':
      return evaluateParallel(element, ctx, evaluate);
    case 'budget':
      return evaluateBudget(element, ctx, evaluate);
    case 'tool':
    case 'inherit':
    case 'declaration':
    case 'bundle':
    case 'namespace':
    case 'require-approval':
      throw misplacedCapability(element, ctx);
    case undefined: {
      let rendered = ctx.run.pass.render(element);
      if (rendered instanceof Promise) rendered = await rendered;
      return evaluate(rendered, {
        ...ctx,
        renderedBy: `<${displayNameOf(element.type)}>${locationSuffix(element.source)}`,
      });
    }
  }
}

function misplacedCapability(element: JuneElement, ctx: EvalContext): WorkflowError {
  const what = `${capabilityNotation(element)}${locationSuffix(element.source)}`;
  if (kindOf(element.type) === 'inherit' && !ctx.agent) {
    return new WorkflowError(
      'inherit-outside-agent',
      `june: ${what} has no <Agent> around it; <Inherit> goes in the children of a nested agent.`,
    );
  }
  if (!ctx.agent) {
    return new WorkflowError(
      'capability-outside-agent',
      `june: ${what} has no <Agent> around it; declare capabilities in an agent's children.`,
    );
  }
  if (ctx.renderedBy) {
    return new WorkflowError(
      'capability-in-component',
      `june: ${what} is rendered by the component ${ctx.renderedBy}, but capabilities must be direct children of an <Agent> (or inside a fragment, array, bundle or wrapper there). Move it into the agent's children, or turn the component into a bundle with defineCapabilities().`,
    );
  }
  return new WorkflowError(
    'capability-in-component',
    `june: ${what} is rendered after ${ctx.agent.notation} resolved its capabilities (from a step's render function); capabilities must be direct children of an <Agent>. Declare it in the agent's children, or render a new <Agent> that declares it.`,
  );
}
