type Schema = Record<string, unknown>;

/** Options of {@link sampleInput}. */
export interface SampleInputOptions {
  /**
   * Which properties of the outermost object the value has: `required` (the smallest value
   * that fits), or `all` (a template to edit, such as the workbench's tool dialog starts from).
   * Nested objects always get their required properties only.
   * @default 'required'
   */
  properties?: 'required' | 'all';
}

/**
 * A small value that fits a JSON Schema, for looking into a composite tool's body before any
 * model gives it an input (`june dev`'s map) and for the input the workbench's tool dialog
 * starts from: the schema's `default` or first `examples` entry when it has one, else the
 * first `enum` value or `const`, `''`, the `minimum` or 0, `false`, `[]` (or `minItems`
 * samples), `null`, and for an object its required properties (or, with
 * `properties: 'all'`, every property of the outermost object); the first branch of
 * `anyOf`/`oneOf`. Nesting deeper than 8 levels gives `null`.
 *
 * @example
 * ```ts
 * sampleInput({ type: 'object', properties: { question: { type: 'string' } }, required: ['question'] });
 * // { question: '' }
 * ```
 */
export function sampleInput(schema: unknown, options: SampleInputOptions = {}): unknown {
  return sampleAt(schema, 0, options.properties === 'all');
}

function sampleAt(schema: unknown, depth: number, allProperties = false): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 8) return null;
  const s = schema as Schema;
  if ('default' in s) return s.default;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const branch = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(branch) && branch.length > 0)
    return sampleAt(branch[0], depth + 1, allProperties);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return 'x'.repeat(typeof s.minLength === 'number' ? s.minLength : 0);
    case 'number':
    case 'integer':
      return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array': {
      const count = typeof s.minItems === 'number' ? Math.min(s.minItems, 3) : 0;
      return Array.from({ length: count }, () => sampleAt(s.items, depth + 1));
    }
    case 'object':
    case undefined: {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      const names = allProperties ? Object.keys(properties) : required;
      return Object.fromEntries(names.map((name) => [name, sampleAt(properties[name], depth + 1)]));
    }
    default:
      return null;
  }
}
