/**
 * Checks one value against a tool's schema: `undefined` when it fits, else what is wrong, as
 * the end of a sentence (`$.env: Invalid option: expected one of "staging"|"prod"`).
 */
export type SchemaCheck = (value: unknown) => string | undefined;

/**
 * What checks the answers to one approval request against the tool it is about, before an
 * answer is applied: `input` an edited input (the tool's input schema), `output` an answer
 * given instead of the tool (its output schema). Absent: anything passes (a tool without
 * that schema).
 *
 * @example
 * ```ts
 * const check: AnswerCheck = { input: (value) => (isEnv(value) ? undefined : '$.env: expected "staging" or "prod"') };
 * inbox.request(request, signal, runId, undefined, check);
 * ```
 */
export interface AnswerCheck {
  input?: SchemaCheck;
  output?: SchemaCheck;
}
