import { z } from 'zod';

/** What {@link fitProps} found: the props as the schema parsed them, or what does not fit. */
export type PropsFit = { props: Record<string, unknown> } | { problems: string };

/**
 * Checks a workflow's props against the JSON Schema of its exported `props` schema (read
 * with zod's `z.fromJSONSchema`), the one check behind Studio's form and `june run --props`,
 * so both say the same.
 *
 * @param schema the JSON Schema ({@link propsSchemaOf}); without one any props fit.
 * @returns the props as parsed (defaults filled in), or each field that does not fit, as
 *   `path: message` joined with `; ` (`(props)` for the object itself).
 */
export function fitProps(
  props: Record<string, unknown>,
  schema: Record<string, unknown> | undefined,
): PropsFit {
  if (schema === undefined) return { props };
  const parsed = z.fromJSONSchema(schema as never).safeParse(props);
  if (parsed.success) return { props: parsed.data as Record<string, unknown> };
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(props)'}: ${issue.message}`)
    .join('; ');
  return { problems };
}

/**
 * The `june:` message for props that do not fit `workflowId`'s schema, ending with what to
 * change where the props came from (`Fix them in the form and start again.`).
 */
export function propsMisfitMessage(workflowId: string, problems: string, fix: string): string {
  return `june: the props do not fit ${workflowId}'s props schema: ${problems}. ${fix}`;
}

/**
 * Checks a value against a JSON Schema as {@link fitProps} checks props (zod's
 * `z.fromJSONSchema`): what does not fit, as `path: message` joined with `; ` (`(value)` for
 * the value itself), or `undefined` when it fits. Studio's fork form checks a new tool result
 * or question answer with it.
 */
export function valueMisfit(value: unknown, schema: Record<string, unknown>): string | undefined {
  const parsed = z.fromJSONSchema(schema as never).safeParse(value);
  if (parsed.success) return undefined;
  return parsed.error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(value)'}: ${issue.message}`)
    .join('; ');
}
