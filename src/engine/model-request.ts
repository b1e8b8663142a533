import { createHash } from 'node:crypto';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { taggedJson } from '../json/tagged-json.js';

/**
 * A model call's request as plain JSON, for the journal: the call options without
 * `abortSignal` and `headers`, object keys sorted, bytes as base64, `undefined` dropped.
 * Two calls that ask the model the same thing give the same request.
 *
 * @example
 * ```ts
 * const request = modelRequestOf(params); // { prompt: [...], providerOptions: { june: { step: 'release' } }, tools: [...] }
 * ```
 */
export function modelRequestOf(params: LanguageModelV3CallOptions): unknown {
  const { abortSignal: _signal, headers: _headers, ...rest } = params;
  return JSON.parse(stableJson(rest));
}

/**
 * The SHA-256 of a request from {@link modelRequestOf}, as hex.
 *
 * @example
 * ```ts
 * hashModelRequest(modelRequestOf(params)); // '9f2c…'
 * ```
 */
export function hashModelRequest(request: unknown): string {
  return createHash('sha256').update(stableJson(request)).digest('hex');
}

/**
 * JSON with object keys sorted, so equal values give equal text; bytes and BigInts tagged
 * as the journal writes them ({@link taggedJson}).
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
