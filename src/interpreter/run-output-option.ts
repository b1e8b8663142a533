// The types of `run(el, { output })`, in a file of their own: the run's options and the
// picker that reads them both use them.
import type { FlexibleSchema, LanguageModelUsage, Output } from 'ai';

/** What a run's results are, as `run(el, { output })` reads them. */
export interface RunResults {
  /** Every finished step's result, by id. */
  steps: Record<string, unknown>;
  /** The tokens of every model call of the run, child runs included. */
  usage: LanguageModelUsage;
}

/** A function that makes `result.output` from the run's results (it may be async). */
export type RunOutputPicker<OUTPUT> = (results: RunResults) => OUTPUT | Promise<OUTPUT>;

/**
 * A schema `result.output` must fit: a zod schema (any Standard Schema) or an AI SDK
 * `Schema` (`jsonSchema()`, `zodSchema()`); not a lazy schema (a function), which would read
 * as a picker.
 */
export type RunOutputSchema<OUTPUT> = Exclude<
  FlexibleSchema<OUTPUT>,
  (...args: never[]) => unknown
>;

/**
 * `run(el, { output })`: how the run's `result.output` is made, and so its type.
 *
 * - a function of `{ steps, usage }`: its return value (`OUTPUT` is what it returns);
 * - a schema (zod, Standard Schema, AI SDK `Schema`): the default output (the only step's
 *   result, or the object of every step's result by id), checked against it and parsed by it
 *   (`OUTPUT` is the schema's output type);
 * - an AI SDK `Output` (the one given to the workflow's only `<Step output>`, or to
 *   `defineAgent({ output })`): that step's result (`OUTPUT` is the Output's type).
 */
export type RunOutput<OUTPUT> =
  RunOutputPicker<OUTPUT> | RunOutputSchema<OUTPUT> | Output.Output<OUTPUT, any>;
