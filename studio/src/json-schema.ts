/** A JSON Schema (draft-07) as far as Studio's forms read it. */
export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  title?: string;
}

/** How one value is asked: a choice, a number, a yes/no, a text, or JSON. */
export type Field = 'choice' | 'number' | 'boolean' | 'text' | 'json';

/** The schema's one type, a nullable one's included (`['string', 'null']` is `string`). */
export function typeOf(schema: Schema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  const types = (schema.type ?? []).filter((type) => type !== 'null');
  return types.length === 1 ? types[0] : undefined;
}

/** The field a value of `schema` is asked in; `json` for objects, arrays and mixed types. */
export function fieldOf(schema: Schema): Field {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return 'choice';
  const type = typeOf(schema);
  if (type === 'number' || type === 'integer') return 'number';
  if (type === 'boolean') return 'boolean';
  if (type === 'string') return 'text';
  return 'json';
}
