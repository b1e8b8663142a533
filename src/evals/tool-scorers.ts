import { toolNames, count, expectationScorer } from './expectation.js';
import type { JuneScorer } from './june-scorer.js';
import { toolCallsIn, type EvalToolCall } from './trace-facts.js';

/**
 * Scores whether the run called each of `tools` at least once, anywhere in the run (child
 * runs included): the share of them it called, 1 when it called them all.
 *
 * @param tools - the tool names; @default the case's `expected.toolsCalled`
 * @throws {WorkflowError} `eval-expectation-invalid` (when scoring) when neither gives the names.
 * @example
 * ```ts
 * evalite('release', { data, task, scorers: [toolsCalled(['readChangelog', 'deploy'])] });
 * ```
 */
export function toolsCalled(tools?: readonly string[]): JuneScorer {
  return expectationScorer(
    {
      name: 'tools called',
      description: 'Every expected tool was called at least once (the share called).',
      field: 'toolsCalled',
      given: tools && [...tools],
      check: toolNames,
    },
    (wanted, output) => {
      const called = new Set(toolCallsIn(output.trace).map((call) => call.tool));
      const missing = wanted.filter((tool) => !called.has(tool));
      return {
        score: wanted.length === 0 ? 1 : (wanted.length - missing.length) / wanted.length,
        metadata: { expected: wanted, called: [...called], missing },
      };
    },
  );
}

/**
 * Scores whether the run kept away from `tools`, anywhere in the run (child runs included):
 * the share of them it never called, 1 when it called none.
 *
 * @param tools - the tool names; @default the case's `expected.toolsNotCalled`
 * @throws {WorkflowError} `eval-expectation-invalid` (when scoring) when neither gives the names.
 * @example
 * ```ts
 * toolsNotCalled(['rollback']);
 * ```
 */
export function toolsNotCalled(tools?: readonly string[]): JuneScorer {
  return expectationScorer(
    {
      name: 'tools not called',
      description: 'No forbidden tool was called (the share left alone).',
      field: 'toolsNotCalled',
      given: tools && [...tools],
      check: toolNames,
    },
    (forbidden, output) => {
      const called = new Set(toolCallsIn(output.trace).map((call) => call.tool));
      const calledAnyway = forbidden.filter((tool) => called.has(tool));
      return {
        score: forbidden.length === 0 ? 1 : 1 - calledAnyway.length / forbidden.length,
        metadata: { forbidden, calledAnyway },
      };
    },
  );
}

/**
 * Scores whether every call of `tools` waited for an approval before it ran (the tool
 * needed one, through its `needsApproval` or a `<RequireApproval>` around it): the share of
 * their calls that asked, whatever the answer. 1 when no such call was made (pair it with
 * {@link toolsCalled} to require one).
 *
 * @param tools - the tool names; @default the case's `expected.approvalsAsked`
 * @throws {WorkflowError} `eval-expectation-invalid` (when scoring) when neither gives the names.
 * @example
 * ```ts
 * approvalsAsked(['deploy']); // a deploy that ran without asking scores 0
 * ```
 */
export function approvalsAsked(tools?: readonly string[]): JuneScorer {
  return expectationScorer(
    {
      name: 'approvals asked',
      description: 'Every call of the named tools waited for an approval before it ran.',
      field: 'approvalsAsked',
      given: tools && [...tools],
      check: toolNames,
    },
    (named, output) => {
      const calls = toolCallsIn(output.trace).filter((call) => named.includes(call.tool));
      const unasked = calls.filter((call) => call.approval === undefined);
      return {
        score: calls.length === 0 ? 1 : (calls.length - unasked.length) / calls.length,
        metadata: {
          calls: calls.length,
          asked: calls.length - unasked.length,
          unasked: unasked.map(callFacts),
        },
      };
    },
  );
}

/**
 * Scores the number of tool calls that ended denied (a person or the case's `approve`
 * refused them): 1 when it is the expected number, else 0.
 *
 * @param expectedDenials - how many; @default the case's `expected.denials`, else 0
 * @example
 * ```ts
 * denials(); // no call denied
 * ```
 */
export function denials(expectedDenials?: number): JuneScorer {
  return expectationScorer(
    {
      name: 'denials',
      description: 'As many tool calls ended denied as expected (none unless the case says).',
      field: 'denials',
      given: expectedDenials,
      check: count,
      fallback: 0,
    },
    (wanted, output) => {
      const denied = toolCallsIn(output.trace).filter(
        (call) => call.status === 'denied' || call.approval?.status === 'denied',
      );
      return {
        score: denied.length === wanted ? 1 : 0,
        metadata: {
          expected: wanted,
          denied: denied.map((call) => ({ ...callFacts(call), reason: call.approval?.reason })),
        },
      };
    },
  );
}

function callFacts(call: EvalToolCall): { tool: string; step: string | undefined; input: unknown } {
  return { tool: call.tool, step: call.step, input: call.input };
}
