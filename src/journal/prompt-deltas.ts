import { stableJson } from '../json/stable-json.js';
import type { PromptBase } from './journal-record.js';

/** The last model request written in one run (outermost or child): its recorded hash and its prompt messages as JSON. */
interface LastRequest {
  requestHash: string;
  messages: string[];
}

/**
 * Writes model requests as what they added (journal schema version 3): each request is
 * compared with the last one of the same run (the outermost run, or one composite call's
 * child run, `frame`), and when their prompts start alike, the record keeps only the
 * messages after the shared ones and a {@link PromptBase} naming that request by its hash.
 * The messages a step's tool loop sends grow with every turn; their records stay the size
 * of one turn.
 *
 * It keeps the last request's messages of each run as JSON, so comparing costs one pass
 * over the prompt, as hashing it does.
 *
 * @example
 * ```ts
 * const deltas = new PromptDeltas();
 * const { request, promptBase } = deltas.encode('', fullRequest, requestHash);
 * ```
 */
export class PromptDeltas {
  readonly #last = new Map<string, LastRequest>();

  /**
   * The form of `request` (whose recorded hash is `requestHash`) to store, and remembers it as
   * the last request of `frame`. Call it for every model call of the run in order, recorded
   * or answered from the journal, so the base it names is in the journal.
   */
  encode(
    frame: string,
    request: unknown,
    requestHash: string,
  ): { request: unknown; promptBase?: PromptBase } {
    const prompt = (request as { prompt?: unknown } | null)?.prompt;
    if (!Array.isArray(prompt)) {
      this.#last.delete(frame);
      return { request };
    }
    const messages = prompt.map((message) => stableJson(message));
    const last = this.#last.get(frame);
    this.#last.set(frame, { requestHash, messages });
    const shared = last ? sharedLength(last.messages, messages) : 0;
    if (!last || shared === 0) return { request };
    return {
      request: { ...(request as object), prompt: prompt.slice(shared) },
      promptBase: { requestHash: last.requestHash, messages: shared },
    };
  }
}

function sharedLength(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
