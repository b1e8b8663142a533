import type { GuardAction, GuardCheckKind } from '../components/guard.js';
import { childRunOf } from '../trace/composite-result.js';
import type { Trace, TraceNode } from '../trace/trace-node.js';
import { expectationScorer } from './expectation.js';
import type { JuneScorer } from './june-scorer.js';

/**
 * One decision of a `<Guard>` found in a trace, child runs included: the guard, its
 * declaration, what it checked (a tool call's input: `tool` set; a step's output or prompt),
 * its action and reason, the step path, and `replayed` when the run's journal gave it again.
 */
export interface EvalGuardDecision {
  guard: string;
  declaration: string;
  check: GuardCheckKind;
  action: GuardAction;
  reason?: string;
  step: string | undefined;
  tool?: string;
  replayed?: true;
}

/**
 * Every guard decision of a run, in the order the trace holds them, child runs of composite
 * tools and defined agents included.
 *
 * @example
 * ```ts
 * guardDecisionsIn(output.trace).filter((decision) => decision.action === 'reject');
 * ```
 */
export function guardDecisionsIn(trace: Trace): EvalGuardDecision[] {
  const found: EvalGuardDecision[] = [];
  const stack: Array<{ node: TraceNode; step: string | undefined }> = [
    { node: trace.root, step: undefined },
  ];
  while (stack.length > 0) {
    const { node, step: outer } = stack.pop()!;
    const step = node.kind === 'step' ? (node.step ?? node.name) : outer;
    for (const decision of node.guards ?? []) {
      const { usage: _usage, ...shown } = decision;
      found.push({ ...shown, step, ...(node.kind === 'tool' ? { tool: node.name } : {}) });
    }
    const childRun = childRunOf(node);
    const next = childRun ? [...node.children, childRun.root] : node.children;
    for (let index = next.length - 1; index >= 0; index--) stack.push({ node: next[index]!, step });
  }
  return found;
}

/** How many decisions of each action a run should have: `{ reject: 1, trip: 0 }`. */
export type GuardDecisionCounts = Partial<Record<GuardAction, number>>;

const ACTIONS: readonly GuardAction[] = ['allow', 'reject', 'trip', 'escalate'];

const decisionCounts = {
  test: (value: unknown): value is GuardDecisionCounts =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.entries(value).every(
      ([key, count]) =>
        ACTIONS.includes(key as GuardAction) && Number.isInteger(count) && (count as number) >= 0,
    ),
  what: 'how many decisions of each action, such as {"reject": 1, "trip": 0}',
};

/**
 * Scores the decisions the run's `<Guard>`s made (child runs included): for each action
 * `expected` names, whether the run had exactly that many decisions of it; the share that
 * matched, 1 when all did. Only the actions named are checked. `guard` counts only the
 * decisions of the guard of that name.
 *
 * @param expected - the counts; @default the case's `expected.guardDecisions`
 * @throws {WorkflowError} `eval-expectation-invalid` (when scoring) when neither gives them.
 * @example
 * ```ts
 * guardDecisions({ reject: 1, trip: 0 }); // one call rejected, the run never tripped
 * guardDecisions({ escalate: 1 }, { guard: 'no-prod' });
 * ```
 */
export function guardDecisions(
  expected?: GuardDecisionCounts,
  options: { guard?: string } = {},
): JuneScorer {
  return expectationScorer(
    {
      name: options.guard ? `guard decisions of ${options.guard}` : 'guard decisions',
      description:
        'As many guard decisions of each named action as expected (the share that matched).',
      field: 'guardDecisions',
      given: expected,
      check: decisionCounts,
    },
    (wanted, output) => {
      const decisions = guardDecisionsIn(output.trace).filter(
        (decision) => options.guard === undefined || decision.guard === options.guard,
      );
      const counted = Object.fromEntries(
        ACTIONS.map((action) => [action, decisions.filter((d) => d.action === action).length]),
      ) as Record<GuardAction, number>;
      const named = Object.entries(wanted) as Array<[GuardAction, number]>;
      const matched = named.filter(([action, count]) => counted[action] === count);
      return {
        score: named.length === 0 ? 1 : matched.length / named.length,
        metadata: {
          expected: wanted,
          counted,
          decisions: decisions.filter((d) => d.action !== 'allow'),
        },
      };
    },
  );
}
