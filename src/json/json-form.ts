/** A JSON value: what `JSON.parse` gives. */
export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The JSON form of a value, or why it has none (see {@link jsonForm}). */
export type JsonForm = { ok: true; value: JsonValue | undefined } | { ok: false; problem: string };

const OMIT: unique symbol = Symbol('omit');
type Converted = JsonValue | typeof OMIT;

class NoJsonForm extends Error {}

/**
 * The one JSON form June gives a value wherever it keeps or shows it (tool outputs for the
 * model, events, traces, journals, Studio). It follows `JSON.stringify` and adds the types
 * it cannot write:
 *
 * - strings, booleans, `null` and finite numbers stay; `NaN` and `±Infinity` become `null`;
 * - a BigInt becomes its decimal string (`10n` → `"10"`);
 * - `undefined`, functions and symbols are left out of objects and become `null` in arrays;
 *   at the top level the form is `undefined`;
 * - a `Date` becomes its ISO 8601 string (an invalid one `null`); a `RegExp` its source text;
 * - a `Map` becomes an object when every key is a string, else an array of `[key, value]`
 *   pairs; a `Set` becomes an array;
 * - a typed array, `Buffer`, `DataView` or `ArrayBuffer` becomes an array of its numbers
 *   (bytes for the last two);
 * - an `Error` becomes `{ name, message }` and its own enumerable fields;
 * - an object with `toJSON()` gives the form of what it returns; any other object (a class
 *   instance too) the form of its own enumerable string-keyed fields.
 *
 * A value that refers to itself (a cycle), nests too deep, or throws while being read
 * (a getter, a `toJSON`) has no JSON form: `ok` is `false` and `problem` says why, with the
 * path (`value.parent.child`). The same object twice without a cycle is fine.
 *
 * @example
 * ```ts
 * jsonForm({ bytes: 10n, at: new Date(0), tags: new Set(['a']) });
 * // { ok: true, value: { bytes: '10', at: '1970-01-01T00:00:00.000Z', tags: ['a'] } }
 * const a: any = {}; a.self = a;
 * jsonForm(a); // { ok: false, problem: 'it refers to itself at value.self (a cycle)' }
 * ```
 */
export function jsonForm(value: unknown): JsonForm {
  try {
    const converted = convert(value, '', new Set(), 'value');
    return { ok: true, value: converted === OMIT ? undefined : converted };
  } catch (error) {
    if (error instanceof NoJsonForm) return { ok: false, problem: error.message };
    if (error instanceof RangeError) return { ok: false, problem: 'it nests too deep' };
    return {
      ok: false,
      problem: `reading it threw: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/**
 * {@link jsonForm}'s value, for places that must show something and never fail (a trace, an
 * event): a value with no JSON form becomes a string that says why, such as
 * `"[no JSON form: it refers to itself at value.self (a cycle)]"`.
 *
 * @example
 * ```ts
 * node.output = plainJson(output);
 * ```
 */
export function plainJson(value: unknown): unknown {
  const form = jsonForm(value);
  return form.ok ? form.value : `[no JSON form: ${form.problem}]`;
}

function convert(value: unknown, key: string, ancestors: Set<object>, path: string): Converted {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return OMIT;
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.has(object)) throw new NoJsonForm(`it refers to itself at ${path} (a cycle)`);
  ancestors.add(object);
  try {
    return convertObject(object, key, ancestors, path);
  } finally {
    ancestors.delete(object);
  }
}

function convertObject(
  object: object,
  key: string,
  ancestors: Set<object>,
  path: string,
): Converted {
  if (object instanceof Date) return Number.isNaN(object.getTime()) ? null : object.toISOString();
  if (object instanceof RegExp) return String(object);
  if (object instanceof ArrayBuffer || object instanceof DataView) {
    const bytes =
      object instanceof DataView
        ? new Uint8Array(object.buffer, object.byteOffset, object.byteLength)
        : new Uint8Array(object);
    return Array.from(bytes);
  }
  if (ArrayBuffer.isView(object))
    return Array.from(
      object as unknown as ArrayLike<number | bigint>,
      (item) => convert(item, '', ancestors, path) as JsonValue,
    );
  if (Array.isArray(object))
    return object.map((item, i) => orNull(convert(item, String(i), ancestors, `${path}[${i}]`)));
  if (object instanceof Set)
    return [...object].map((item, i) =>
      orNull(convert(item, String(i), ancestors, `${path}[${i}]`)),
    );
  if (object instanceof Map) return convertMap(object, ancestors, path);
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return convert(toJSON.call(object, key), key, ancestors, path);
  const out: Record<string, JsonValue> =
    object instanceof Error ? { name: object.name, message: object.message } : {};
  for (const field of Object.keys(object)) {
    const converted = convert(
      (object as Record<string, unknown>)[field],
      field,
      ancestors,
      `${path}.${field}`,
    );
    if (converted !== OMIT) out[field] = converted;
  }
  return out;
}

function convertMap(map: Map<unknown, unknown>, ancestors: Set<object>, path: string): JsonValue {
  const entries = [...map];
  if (entries.every(([key]) => typeof key === 'string')) {
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of entries) {
      const converted = convert(item, key as string, ancestors, `${path}.${key as string}`);
      if (converted !== OMIT) out[key as string] = converted;
    }
    return out;
  }
  return entries.map(([key, item], i) => [
    orNull(convert(key, '', ancestors, `${path}[${i}][0]`)),
    orNull(convert(item, '', ancestors, `${path}[${i}][1]`)),
  ]);
}

function orNull(value: Converted): JsonValue {
  return value === OMIT ? null : value;
}
