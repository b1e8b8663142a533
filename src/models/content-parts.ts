import type { LanguageModelV4Content } from '@ai-sdk/provider';
import type { TextStreamPart, ToolSet } from 'ai';

type Part = TextStreamPart<ToolSet>;

/**
 * The stream parts a whole answer (a `doGenerate` result's content) stands for, in the order
 * the model gave them: its text as `text-start`, one `text-delta` and `text-end` per text
 * part, its reasoning likewise (`reasoning-start`, `reasoning-delta`, `reasoning-end`), and a
 * `tool-call` per call (its input as the model sent it, read as JSON; text that
 * is not JSON stays text).
 *
 * @example
 * ```ts
 * contentParts([{ type: 'text', text: 'done' }]);
 * // [{ type: 'text-start', id: 'text_0' }, { type: 'text-delta', id: 'text_0', text: 'done' }, { type: 'text-end', id: 'text_0' }]
 * ```
 */
export function contentParts(content: LanguageModelV4Content[]): Part[] {
  const parts: unknown[] = [];
  content.forEach((part, index) => {
    if (part.type === 'text' && part.text !== '') {
      const id = `text_${index}`;
      parts.push(
        { type: 'text-start', id },
        { type: 'text-delta', id, text: part.text },
        { type: 'text-end', id },
      );
    } else if (part.type === 'reasoning' && part.text !== '') {
      const id = `reasoning_${index}`;
      parts.push(
        { type: 'reasoning-start', id },
        { type: 'reasoning-delta', id, text: part.text },
        { type: 'reasoning-end', id },
      );
    } else if (part.type === 'tool-call') {
      parts.push({
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: jsonOrText(part.input),
        ...(part.providerExecuted ? { providerExecuted: true } : {}),
      });
    }
  });
  return parts as Part[];
}

function jsonOrText(input: string): unknown {
  if (input.trim() === '') return {};
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}
