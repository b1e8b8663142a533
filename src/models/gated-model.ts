import type { LanguageModelUsage, LanguageModel } from 'ai';
import { mappedStream } from './mapped-stream.js';
import { usageOf } from './observe-calls.js';
import { withMiddleware } from './with-middleware.js';

/** What {@link gatedModel} does around each call. */
export interface ModelGate {
  /** Runs before each call starts; a call waits for it, and does not start when it rejects. */
  before: () => Promise<void>;
  /** Each call's usage once the provider (or a record) reported it, with the answer's provider metadata. */
  after?: (usage: LanguageModelUsage, providerMetadata: unknown) => void;
}

/**
 * `model` with `gate.before` awaited before each call (generate or stream) and `gate.after`
 * told each call's usage. Wrapped around a journaled model, it sees recorded calls too, with
 * their recorded usage, so a replay goes through it as the first run did.
 *
 * @example
 * ```ts
 * const capped = gatedModel(model, { before: () => checkCaps(), after: (usage) => count(usage) });
 * ```
 */
export function gatedModel(model: LanguageModel, gate: ModelGate): LanguageModel {
  return withMiddleware(model, {
    specificationVersion: 'v4',
    wrapGenerate: async ({ doGenerate }) => {
      await gate.before();
      const result = await doGenerate();
      gate.after?.(usageOf(result.usage), result.providerMetadata);
      return result;
    },
    wrapStream: async ({ doStream }) => {
      await gate.before();
      const { stream, ...rest } = await doStream();
      const after = gate.after;
      if (!after) return { stream, ...rest };
      return {
        stream: mappedStream(stream, (part) => {
          if (part.type === 'finish') after(usageOf(part.usage), part.providerMetadata);
          return [part];
        }),
        ...rest,
      };
    },
  });
}
