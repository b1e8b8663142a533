/** A JSON Schema (draft-07) as far as a summary reads it. */
interface Schema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
}

/**
 * One line saying what an answer to a question must be, from its answer schema (JSON Schema
 * draft-07): `one of "staging"|"prod"`, `number`, `{ title: string, highlights?: string[] }`.
 * Nested objects are summarized to `object`; a schema without a `type` or `enum` is `any JSON`.
 *
 * @example
 * ```ts
 * answerSchemaSummary({ type: 'string', enum: ['staging', 'prod'] }); // 'one of "staging"|"prod"'
 * ```
 */
export function answerSchemaSummary(answerSchema: Record<string, unknown>, depth = 0): string {
  const schema = answerSchema as Schema;
  if (Array.isArray(schema.enum))
    return `one of ${schema.enum.map((value) => JSON.stringify(value)).join('|')}`;
  const type = Array.isArray(schema.type) ? schema.type.join('|') : schema.type;
  if (type === 'array' && schema.items)
    return `${answerSchemaSummary(schema.items as Record<string, unknown>, depth + 1)}[]`;
  if (type === 'object' && schema.properties && depth === 0) {
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties).map(
      ([name, property]) =>
        `${name}${required.has(name) ? '' : '?'}: ${answerSchemaSummary(property as Record<string, unknown>, depth + 1)}`,
    );
    return `{ ${fields.join(', ')} }`;
  }
  return type ?? 'any JSON';
}
