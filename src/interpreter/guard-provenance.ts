import type { ResolvedCapability, ResolvedScope } from '../capabilities/scope.js';
import { budgetsIn, guardsIn, type PolicyEntry } from './guard-entry.js';

/**
 * An agent's scope with the guards over the agent in each tool's provenance (`guards`, their
 * declarations outermost first), beside its `source`, which keeps its shape: a guard is not
 * a wrapper the tool came through. The tools are unchanged; without guards, so is the scope.
 *
 * @example
 * ```ts
 * guardedScope(scope, guards).capabilities; // [{ name: 'deploy', source: '<Tool name="deploy">', guards: ['<Guard name="no-prod">'] }]
 * ```
 */
export function guardedScope(scope: ResolvedScope, guards: readonly PolicyEntry[]): ResolvedScope {
  if (guards.length === 0) return scope;
  const ofGuards = guardsIn(guards).map((guard) => guard.declaration);
  const ofBudgets = budgetsIn(guards).map((budget) => budget.declaration);
  const byName = new Map<string, ResolvedCapability>();
  for (const [name, entry] of scope.byName)
    byName.set(name, {
      ...entry,
      provenance: {
        ...entry.provenance,
        ...(ofGuards.length ? { guards: [...ofGuards] } : {}),
        ...(ofBudgets.length ? { budgets: [...ofBudgets] } : {}),
      },
    });
  return {
    ...scope,
    byName,
    ...(scope.capabilities
      ? { capabilities: [...byName.values()].map((entry) => entry.provenance) }
      : {}),
  };
}
