import type { Tool } from 'ai';
import type { AnswerCheck, SchemaCheck } from '../approvals/answer-check.js';

/** How many of a schema's issues a message names. */
const ISSUES_SHOWN = 3;

type StandardIssue = { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> };
type StandardResult = { value?: unknown; issues?: readonly StandardIssue[] };
type Validated = { success: true; value: unknown } | { success: false; error: unknown };

/**
 * What checks the answers to an approval request of a call of `tool`: an edited input
 * against its `inputSchema`, an answer given instead of it against its `outputSchema`
 * (absent: any output passes). An answer is checked while it is given, so the check is
 * synchronous: a Standard Schema (zod, valibot, arktype) is asked through its
 * `~standard.validate`, an AI SDK `jsonSchema()` through its `validate`; a schema without a
 * validator (plain JSON Schema, as MCP tools have) lets every value pass, as the AI SDK does.
 *
 * @example
 * ```ts
 * const check = toolAnswerCheck(tools.deploy);
 * check.input?.({ env: 'moon' }); // '$.env: Invalid option: expected one of "staging"|"prod"'
 * ```
 */
export function toolAnswerCheck(tool: Tool | undefined): AnswerCheck {
  const input = schemaCheck(tool?.inputSchema);
  const output = schemaCheck((tool as { outputSchema?: unknown } | undefined)?.outputSchema);
  return { ...(input ? { input } : {}), ...(output ? { output } : {}) };
}

/** A synchronous check of `schema` (see {@link toolAnswerCheck}); `undefined` when it has no validator. */
function schemaCheck(schema: unknown): SchemaCheck | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const standard = (schema as { '~standard'?: { validate?: unknown } })['~standard'];
  if (typeof standard?.validate === 'function') {
    const validate = standard.validate as (value: unknown) => unknown;
    return (value) => standardProblem(validate.call(standard, value));
  }
  const validate = (schema as { validate?: unknown }).validate;
  if (typeof validate === 'function')
    return (value) => sdkProblem((validate as (value: unknown) => unknown).call(schema, value));
  return undefined;
}

function standardProblem(result: unknown): string | undefined {
  if (isThenable(result)) return asyncProblem();
  const issues = (result as StandardResult).issues;
  if (!issues || issues.length === 0) return undefined;
  const shown = issues
    .slice(0, ISSUES_SHOWN)
    .map((issue) => `${issuePath(issue)}: ${issue.message}`);
  const more = issues.length > ISSUES_SHOWN ? `; and ${issues.length - ISSUES_SHOWN} more` : '';
  return `${shown.join('; ')}${more}`;
}

function sdkProblem(result: unknown): string | undefined {
  if (isThenable(result)) return asyncProblem();
  const validated = result as Validated;
  if (validated.success) return undefined;
  const error = validated.error;
  return error instanceof Error ? error.message : String(error);
}

/** The issue's place in the value as JSONPath (`$.items[0].sku`), `$` for the whole value. */
function issuePath(issue: StandardIssue): string {
  return (issue.path ?? []).reduce<string>((out, step) => {
    const key = typeof step === 'object' && step !== null ? step.key : step;
    if (typeof key === 'number') return `${out}[${key}]`;
    const name = String(key);
    return /^[A-Za-z_$][\w$]*$/.test(name) ? `${out}.${name}` : `${out}[${JSON.stringify(name)}]`;
  }, '$');
}

function asyncProblem(): string {
  return 'the schema checks values only asynchronously, and an answer is checked while it is given; approve or deny the call as the model made it';
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
