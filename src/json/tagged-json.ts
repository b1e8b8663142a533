/** How bytes stand in text June stores: `{"$bytes": "<base64>"}`. */
export interface BytesTag {
  $bytes: string;
}

/**
 * The one way June writes what plain JSON cannot hold into the text it stores and compares
 * (journal records, model requests and their hashes): bytes (a `Uint8Array` or `Buffer`)
 * become `{"$bytes": "<base64>"}` and a BigInt its decimal string; anything else is left as
 * it is. Call it from a `JSON.stringify` replacer with the value before `toJSON` (`raw`,
 * i.e. `this[key]`) and after (`value`); {@link untagBytes} reads the tag back.
 *
 * @example
 * ```ts
 * JSON.stringify(record, function (key, value) {
 *   return taggedJson(this[key], value);
 * }); // a Uint8Array [1, 2] is written {"$bytes":"AQI="}
 * ```
 */
export function taggedJson(raw: unknown, value: unknown): unknown {
  if (raw instanceof Uint8Array)
    return { $bytes: Buffer.from(raw).toString('base64') } satisfies BytesTag;
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/**
 * The bytes a {@link taggedJson} tag stands for, or `undefined` when `value` is not such a
 * tag (an object with the one field `$bytes`, a string). For a `JSON.parse` reviver.
 *
 * @example
 * ```ts
 * untagBytes({ $bytes: 'AQI=' }); // Uint8Array [1, 2]
 * untagBytes({ $bytes: 'AQI=', more: 1 }); // undefined
 * ```
 */
export function untagBytes(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  const tag = (value as Partial<BytesTag>).$bytes;
  if (keys.length !== 1 || typeof tag !== 'string') return undefined;
  return new Uint8Array(Buffer.from(tag, 'base64'));
}
