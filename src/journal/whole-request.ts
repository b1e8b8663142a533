import type { ModelCallRecord } from './journal-record.js';

/**
 * The whole request of a model-call record: its `request` as stored, or, for a record that
 * keeps only what its request added ({@link PromptBase}), the request with the prompt put
 * together from the chain of records it names (`byHash`: the journal's model-call records by
 * `requestHash`). A base the journal lacks leaves the prompt as far as it could be put
 * together. Used for messages (the first difference of `journal-mismatch`), not for matching:
 * a call matches its record by `requestHash`.
 *
 * @example
 * ```ts
 * const request = wholeRequest(record, (hash) => index.modelCallByHash(hash));
 * ```
 */
export function wholeRequest(
  record: ModelCallRecord,
  byHash: (requestHash: string) => ModelCallRecord | undefined,
): unknown {
  if (!record.promptBase) return record.request;
  // the chain, newest first, down to a record that keeps its whole prompt
  const chain: ModelCallRecord[] = [record];
  const seen = new Set<ModelCallRecord>(chain);
  for (let at = record; at.promptBase;) {
    const base = byHash(at.promptBase.requestHash);
    if (!base || seen.has(base)) break;
    chain.push(base);
    seen.add(base);
    at = base;
  }
  let prompt: unknown[] = [];
  for (const link of chain.reverse()) {
    const added = promptOf(link.request);
    prompt = link.promptBase ? [...prompt.slice(0, link.promptBase.messages), ...added] : added;
  }
  return { ...(record.request as object), prompt };
}

function promptOf(request: unknown): unknown[] {
  const prompt = (request as { prompt?: unknown } | null)?.prompt;
  return Array.isArray(prompt) ? prompt : [];
}
