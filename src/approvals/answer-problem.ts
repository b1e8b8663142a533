import { fromJSONSchema } from 'zod';

/** How many of a schema's issues a message names. */
const ISSUES_SHOWN = 3;

/**
 * What is wrong with `value` under the JSON Schema `schema` (`$.env: Invalid option ...`);
 * undefined when it fits or nothing checks it (no schema, no value, a schema zod cannot read).
 * An answer given over the database is checked with it (`checkAnswerFits`), and so is
 * `june fork --output` at a question.
 */
export function answerProblem(
  schema: Record<string, unknown> | undefined,
  value: unknown,
): string | undefined {
  if (schema === undefined || value === undefined) return undefined;
  let parsed;
  try {
    parsed = fromJSONSchema(schema as Parameters<typeof fromJSONSchema>[0]).safeParse(value);
  } catch {
    return undefined; // a JSON Schema zod cannot read: the worker's check decides
  }
  if (parsed.success) return undefined;
  const issues = parsed.error.issues;
  const shown = issues
    .slice(0, ISSUES_SHOWN)
    .map((issue) => `${pathOf(issue.path)}: ${issue.message}`);
  const more = issues.length > ISSUES_SHOWN ? `; and ${issues.length - ISSUES_SHOWN} more` : '';
  return `${shown.join('; ')}${more}`;
}

/** An issue's place in the value as JSONPath (`$.items[0].sku`). */
function pathOf(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    const name = String(key);
    return /^[A-Za-z_$][\w$]*$/.test(name) ? `${out}.${name}` : `${out}[${JSON.stringify(name)}]`;
  }, '$');
}
