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
  if (typeof value === 'object' && value !== null && formed.has(value))
    return { ok: true, value: value as JsonValue };
  try {
    const converted = convert(value, '', { ancestors: [], path: [] });
    if (typeof converted === 'object' && converted !== null) formed.add(converted);
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
 * The values {@link jsonForm} made: already in their JSON form, so asking again (the same
 * tool output for its event, its trace node and the step's messages) gives them back as
 * they are instead of copying them again. Nothing of June changes a form once made.
 */
const formed = new WeakSet<object>();

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

/**
 * Where a conversion is: the objects open above the value, innermost last (to find a cycle),
 * and the keys that lead to it (field names and indexes), written as a path only when a
 * cycle is found. An array, not a set: a value nests a few levels, and looking through a
 * short array costs less than adding to and deleting from a set for every object.
 */
interface Walk {
  ancestors: object[];
  path: Array<string | number>;
}

/** `value.parent.items[0]`: where a cycle was found. */
function pathOf(walk: Walk): string {
  const steps = walk.path.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`));
  return `value${steps.join('')}`;
}

function convert(value: unknown, key: string | number, walk: Walk): Converted {
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
  if (formed.has(object)) return object as JsonValue;
  const { ancestors } = walk;
  if (ancestors.includes(object))
    throw new NoJsonForm(`it refers to itself at ${pathOf(walk)} (a cycle)`);
  // no finally: a throw ends the whole conversion, walk and all
  ancestors.push(object);
  const converted = convertObject(object, key, walk);
  ancestors.pop();
  return converted;
}

/** Converts `value`, found at `key` (a field name, an index) of the object being converted. */
function convertAt(value: unknown, key: string | number, walk: Walk): Converted {
  walk.path.push(key);
  const converted = convert(value, key, walk);
  walk.path.pop();
  return converted;
}

function convertObject(object: object, key: string | number, walk: Walk): Converted {
  // the common cases first: arrays, and plain objects without toJSON (messages, inputs, traces)
  if (Array.isArray(object)) return object.map((item, i) => orNull(convertAt(item, i, walk)));
  if (
    Object.getPrototypeOf(object) === Object.prototype &&
    typeof (object as { toJSON?: unknown }).toJSON !== 'function'
  )
    return convertFields(object, {}, walk);
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
      (item) => convert(item, '', walk) as JsonValue,
    );
  if (object instanceof Set) return [...object].map((item, i) => orNull(convertAt(item, i, walk)));
  if (object instanceof Map) return convertMap(object, walk);
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return convert(toJSON.call(object, String(key)), key, walk);
  const out: Record<string, JsonValue> =
    object instanceof Error ? { name: object.name, message: object.message } : {};
  return convertFields(object, out, walk);
}

/** Adds the form of each own enumerable string-keyed field of `object` to `out`. */
function convertFields(
  object: object,
  out: Record<string, JsonValue>,
  walk: Walk,
): Record<string, JsonValue> {
  for (const field of Object.keys(object)) {
    const converted = convertAt((object as Record<string, unknown>)[field], field, walk);
    if (converted !== OMIT) out[field] = converted;
  }
  return out;
}

function convertMap(map: Map<unknown, unknown>, walk: Walk): JsonValue {
  const entries = [...map];
  if (entries.every(([key]) => typeof key === 'string')) {
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of entries) {
      const converted = convertAt(item, key as string, walk);
      if (converted !== OMIT) out[key as string] = converted;
    }
    return out;
  }
  return entries.map(([key, item], i) => {
    walk.path.push(i, 0);
    const first = orNull(convert(key, '', walk));
    walk.path[walk.path.length - 1] = 1;
    const second = orNull(convert(item, '', walk));
    walk.path.length -= 2;
    return [first, second];
  });
}

function orNull(value: Converted): JsonValue {
  return value === OMIT ? null : value;
}
