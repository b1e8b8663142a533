import { WorkflowError } from '../errors/index.js';
import type { JuneExpectations } from './eval-case.js';
import type { WorkflowEvalOutput } from './eval-output.js';
import type { JuneScore, JuneScorer } from './june-scorer.js';

type Check<T> = { test: (value: unknown) => value is T; what: string };

/** A list of tool names. */
export const toolNames: Check<string[]> = {
  test: (value): value is string[] =>
    Array.isArray(value) && value.every((item) => typeof item === 'string'),
  what: 'a list of tool names, such as ["deploy"]',
};

/** A whole number, 0 or more. */
export const count: Check<number> = {
  test: (value): value is number => Number.isInteger(value) && (value as number) >= 0,
  what: 'a whole number, 0 or more',
};

/**
 * What a scorer checks against: its own argument when given, else the case's
 * `expected[field]`, else `fallback`.
 *
 * @throws {WorkflowError} `eval-expectation-invalid` when neither is there (and no
 *   fallback), or the case's value is not what the field holds; the message names the
 *   scorer, the field and the case.
 */
function expectation<K extends keyof JuneExpectations, T>(
  scorer: string,
  field: K,
  given: T | undefined,
  expected: unknown,
  check: Check<T>,
  caseId: string,
  fallback?: T,
): T {
  if (given !== undefined) return given;
  const value =
    typeof expected === 'object' && expected !== null
      ? (expected as Record<string, unknown>)[field]
      : undefined;
  if (value === undefined) {
    if (fallback !== undefined) return fallback;
    throw new WorkflowError(
      'eval-expectation-invalid',
      `june: the scorer "${scorer}" has nothing to check case "${caseId}" against: give the case "expected": {"${field}": ...} (${check.what}), or pass the value to the scorer.`,
    );
  }
  if (!check.test(value)) {
    throw new WorkflowError(
      'eval-expectation-invalid',
      `june: case "${caseId}" expects ${field} ${JSON.stringify(value)}, but the scorer "${scorer}" reads ${check.what} there. Fix the dataset line.`,
    );
  }
  return value;
}

/**
 * A scorer of one expectation: `score` gets the value to check ({@link expectation}: the
 * scorer's own argument `given`, else the case's `expected[field]`, else `fallback`) and the
 * task's output.
 *
 * @throws {WorkflowError} `eval-expectation-invalid` (when scoring), as {@link expectation}.
 */
export function expectationScorer<K extends keyof JuneExpectations, T>(
  spec: {
    name: string;
    description: string;
    field: K;
    given: T | undefined;
    check: Check<T>;
    fallback?: T;
  },
  score: (wanted: T, output: WorkflowEvalOutput) => JuneScore,
): JuneScorer {
  const { name, description, field, given, check, fallback } = spec;
  return {
    name,
    description,
    scorer: ({ output, expected }) =>
      score(expectation(name, field, given, expected, check, output.caseId, fallback), output),
  };
}
