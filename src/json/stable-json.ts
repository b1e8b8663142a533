import { taggedJson } from './tagged-json.js';

/**
 * JSON with object keys sorted, so equal values give equal text; bytes and BigInts tagged
 * as the journal writes them ({@link taggedJson}). What June hashes and compares stored
 * values by (model requests, tool inputs).
 *
 * @example
 * ```ts
 * stableJson({ b: 1, a: 2 }); // '{"a":2,"b":1}'
 * ```
 */
export function stableJson(value: unknown): string {
  return (
    JSON.stringify(value, function (this: Record<string, unknown>, key, given: unknown) {
      const v = taggedJson(this[key], given);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const sorted: Record<string, unknown> = {};
        for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
        return sorted;
      }
      return v;
    }) ?? 'null'
  );
}
