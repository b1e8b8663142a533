/**
 * Every non-empty string in a JSON value (its leaves, keys excepted): the secrets a value of
 * secret props holds. Numbers and booleans are not secrets: `1` would hide every 1.
 *
 * @example
 * ```ts
 * secretStrings({ token: 'abc', nested: { key: 'def', port: 5432 } }); // ['def', 'abc'] (any order)
 * ```
 */
export function secretStrings(value: unknown): string[] {
  const found: string[] = [];
  const queue: unknown[] = [value];
  while (queue.length > 0) {
    const item = queue.pop();
    if (typeof item === 'string') found.push(item);
    else if (typeof item === 'object' && item !== null) queue.push(...Object.values(item));
  }
  return found.filter((text) => text !== '');
}
