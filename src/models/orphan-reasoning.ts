import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

/**
 * A repair of one model stream's reasoning parts, part by part: a `reasoning-delta` or
 * `reasoning-end` whose `reasoning-start` never came (the OpenAI Responses API and Bedrock
 * send such deltas) gets that start first, and a reasoning part opened that way that is still
 * open at `finish` gets its end. The AI SDK's `streamText` fails the run on such a delta
 * (`reasoning part r not found`); repaired where models come in, the run goes on, and a
 * recorded answer replays through the same repair.
 *
 * @returns a function that gives, for each part read, the parts to pass on in its place
 *   (most often the part alone).
 * @example
 * ```ts
 * const repair = orphanReasoningRepair();
 * repair({ type: 'reasoning-delta', id: 'r', delta: 'hm' });
 * // [{ type: 'reasoning-start', id: 'r' }, { type: 'reasoning-delta', id: 'r', delta: 'hm' }]
 * ```
 */
export function orphanReasoningRepair(): (
  part: LanguageModelV4StreamPart,
) => LanguageModelV4StreamPart[] {
  let open: Set<string> | undefined;
  let opened: Set<string> | undefined;
  return (part) => {
    switch (part.type) {
      case 'reasoning-start':
        (open ??= new Set()).add(part.id);
        return [part];
      case 'reasoning-delta':
        if (open?.has(part.id)) return [part];
        (open ??= new Set()).add(part.id);
        (opened ??= new Set()).add(part.id);
        return [{ type: 'reasoning-start', id: part.id }, part];
      case 'reasoning-end':
        opened?.delete(part.id);
        if (open?.delete(part.id)) return [part];
        return [{ type: 'reasoning-start', id: part.id }, part];
      case 'finish': {
        if (!opened?.size) return [part];
        const ends = [...opened].map((id) => ({ type: 'reasoning-end' as const, id }));
        opened.clear();
        return [...ends, part];
      }
      default:
        return [part];
    }
  };
}
