import { asSchema, type FlexibleSchema, type Output } from 'ai';
import { WorkflowError } from '../errors/june-error.js';
import { defaultOutput } from './run-frame.js';
import type { RunOutput, RunOutputPicker } from './run-output-option.js';

/**
 * The picker of a run's `output` option, as the run calls it when it succeeded: the option's
 * own function, one that checks the default output against a schema or an `Output`, or
 * `undefined` (the default output, unchecked).
 *
 * @throws {WorkflowError} `run-output-invalid` (from the picker, failing the run) when the
 *   output does not fit the schema, or, with an `Output`, when the run did not finish exactly
 *   one step or its result is not of the Output's kind.
 * @example
 * ```ts
 * const pick = outputPicker(z.object({ ship: z.boolean() }));
 * await pick?.({ steps: { review: { ship: true } }, usage }); // { ship: true }
 * ```
 */
export function outputPicker<OUTPUT>(
  option: RunOutput<OUTPUT> | undefined,
): RunOutputPicker<OUTPUT> | undefined {
  if (option === undefined || typeof option === 'function') return option;
  if (isOutput(option)) return ({ steps }) => onlyStepResult(steps, option) as OUTPUT;
  const schema = asSchema(option as FlexibleSchema<OUTPUT>);
  return async ({ steps }) => {
    const output = defaultOutput(steps);
    const checked = await schema.validate?.(output);
    if (!checked || checked.success) return checked ? checked.value : (output as OUTPUT);
    throw new WorkflowError(
      'run-output-invalid',
      `june: the run's output does not fit the schema given as run(..., { output }): ${checked.error.message}. The output is ${describeOutput(steps)}; change the schema, or pass a function ({ steps }) => ... that picks the output.`,
      { cause: checked.error },
    );
  };
}

/** An AI SDK `Output` (`Output.object(...)`, `Output.text()`, ...), told from a schema. */
function isOutput(value: object): value is Output.Output<unknown, unknown> {
  return (
    'parseCompleteOutput' in value &&
    typeof (value as { parseCompleteOutput?: unknown }).parseCompleteOutput === 'function' &&
    'responseFormat' in value
  );
}

/** What each kind of `Output` makes of a step's result. */
const outputKinds: Record<string, { fits: (value: unknown) => boolean; what: string }> = {
  text: { fits: (value) => typeof value === 'string', what: 'a string' },
  choice: { fits: (value) => typeof value === 'string', what: 'a string' },
  object: {
    fits: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    what: 'an object',
  },
  array: { fits: Array.isArray, what: 'an array' },
};

function onlyStepResult(steps: Record<string, unknown>, output: Output.Output<unknown, unknown>) {
  const ids = Object.keys(steps);
  if (ids.length !== 1) {
    throw new WorkflowError(
      'run-output-invalid',
      `june: run(..., { output }) was given an AI SDK Output (Output.${output.name}), which types the result of a workflow's only step, but the run finished ${ids.length === 0 ? 'no step' : `${ids.length} steps (${ids.join(', ')})`}; pass a schema of the object of every step's result, or a function ({ steps }) => ... that picks the output.`,
    );
  }
  const value = steps[ids[0]!];
  const kind = outputKinds[output.name];
  if (kind && !kind.fits(value)) {
    throw new WorkflowError(
      'run-output-invalid',
      `june: run(..., { output }) was given Output.${output.name}(), whose result is ${kind.what}, but step "${ids[0]}" gave ${describeValue(value)}; give the step the same output={...}, or pass the Output that step has.`,
    );
  }
  return value;
}

function describeOutput(steps: Record<string, unknown>): string {
  const ids = Object.keys(steps);
  if (ids.length === 1) return `the result of the only step, "${ids[0]}"`;
  return `the object of every step's result by id (${ids.length === 0 ? 'no step ran' : ids.map((id) => `"${id}"`).join(', ')})`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
