import { traceFailureList } from '../trace/trace-failures.js';
import { count, expectationScorer } from './expectation.js';
import type { JuneScorer } from './june-scorer.js';
import { childRunsIn, modelCallsIn } from './trace-facts.js';

/**
 * Scores the number of child runs (composite tool calls, `defineAgent` agents called as
 * tools) the run started, at any depth: 1 when it is the expected number, else 0.
 *
 * @param expectedRuns - how many; @default the case's `expected.childRuns`
 * @throws {WorkflowError} `eval-expectation-invalid` (when scoring) when neither gives it.
 * @example
 * ```ts
 * childRuns(1); // one research call, no more
 * ```
 */
export function childRuns(expectedRuns?: number): JuneScorer {
  return expectationScorer(
    {
      name: 'child runs',
      description: 'The run started the expected number of child runs (composite tool calls).',
      field: 'childRuns',
      given: expectedRuns,
      check: count,
    },
    (wanted, output) => {
      const runs = childRunsIn(output.trace);
      return {
        score: runs.length === wanted ? 1 : 0,
        metadata: {
          expected: wanted,
          childRuns: runs.map((child) => ({
            runId: child.runId,
            workflow: child.workflow,
            status: child.status,
          })),
        },
      };
    },
  );
}

/**
 * Scores the tokens the whole run used (every model call, child runs included, as the run's
 * `usage.totalTokens`): 1 within `maxTokens`, else `maxTokens / tokens`, so a run twice over
 * budget scores 0.5. 0 when no model call reported a count.
 *
 * @param maxTokens - the budget in tokens; @default the case's `expected.maxTokens`
 * @throws {WorkflowError} `eval-expectation-invalid` (when scoring) when neither gives it.
 * @example
 * ```ts
 * tokensWithin(2_000);
 * ```
 */
export function tokensWithin(maxTokens?: number): JuneScorer {
  return expectationScorer(
    {
      name: 'tokens',
      description: 'The run stayed within its token budget (budget / tokens when over).',
      field: 'maxTokens',
      given: maxTokens,
      check: count,
    },
    (budget, output) => {
      const tokens = output.usage.totalTokens;
      if (tokens === undefined) return { score: 0, metadata: { budget, tokens: 'not reported' } };
      return { score: tokens <= budget ? 1 : budget / tokens, metadata: { budget, tokens } };
    },
  );
}

/**
 * Scores the model calls the whole run made (the AI SDK's steps: each round of a step's
 * tool loop; child runs included): 1 within `maxSteps`, else `maxSteps / steps`.
 *
 * @param maxSteps - the most model calls; @default the case's `expected.maxSteps`
 * @throws {WorkflowError} `eval-expectation-invalid` (when scoring) when neither gives it.
 * @example
 * ```ts
 * stepsWithin(4); // read, deploy, answer, and one to spare
 * ```
 */
export function stepsWithin(maxSteps?: number): JuneScorer {
  return expectationScorer(
    {
      name: 'steps',
      description:
        'The run made no more model calls (AI SDK steps) than allowed (allowed / made when over).',
      field: 'maxSteps',
      given: maxSteps,
      check: count,
    },
    (allowed, output) => {
      const steps = modelCallsIn(output.trace).length;
      return { score: steps <= allowed ? 1 : allowed / steps, metadata: { allowed, steps } };
    },
  );
}

/**
 * Scores 1 when the run succeeded with nothing failing inside it, else 0: a run that failed
 * or was aborted, a tool call that failed (the model saw an error and went on), a failure a
 * `<Catch>` caught. Its metadata names the error and each failure.
 *
 * @example
 * ```ts
 * evalite('release', { data, task, scorers: [noErrors()] });
 * ```
 */
export function noErrors(): JuneScorer {
  return {
    name: 'no errors',
    description: 'The run succeeded, and no tool call or caught attempt failed inside it.',
    scorer: ({ output }) => {
      const failures = traceFailureList(output.trace.root).map((failure) => ({
        kind: failure.kind,
        name: failure.name,
        message: failure.error.message,
      }));
      const succeeded = output.status === 'succeeded' && output.error === undefined;
      return {
        score: succeeded && failures.length === 0 ? 1 : 0,
        metadata: {
          status: output.status,
          ...(output.error ? { error: output.error } : {}),
          failures,
        },
      };
    },
  };
}
