import type {
  LanguageModelV4FinishReason,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Text,
  LanguageModelV4ToolCall,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { mockUsage } from './mock-usage.js';
import type { ScriptTurn } from './script-format.js';

/** Where a turn is answered: its step path, its 1-based number, and the prompt it got. */
export interface TurnPlace {
  step: string;
  turn: number;
  prompt: LanguageModelV4Prompt;
}

/** A scripted turn as model output: its content parts, finish reason and usage. */
export interface TurnAnswer {
  content: Array<LanguageModelV4Text | LanguageModelV4ToolCall>;
  finishReason: LanguageModelV4FinishReason;
  usage: LanguageModelV4Usage;
}

/**
 * Turns a scripted turn (without `error`) into model output.
 *
 * - The text is `text`, or `object` as JSON; it comes first, then the tool calls in order.
 * - Tool call ids default to `call_<step>_<turn>_<n>` (`n` 1-based), inputs to `{}`.
 * - The finish reason is `tool-calls` when the turn calls a tool, else `stop`.
 * - Usage is the turn's `usage`, else a default: input = the prompt's JSON length / 4,
 *   output = (text length + each tool call's name and JSON input length) / 4, both rounded
 *   and at least 1.
 *
 * @example
 * ```ts
 * const answer = turnAnswer({ text: 'Done.' }, { step: 'release', turn: 1, prompt: [] });
 * ```
 */
export function turnAnswer(turn: ScriptTurn, place: TurnPlace): TurnAnswer {
  const content: TurnAnswer['content'] = [];
  const text = turn.object !== undefined ? JSON.stringify(turn.object) : turn.text;
  if (text !== undefined) content.push({ type: 'text', text });
  (turn.toolCalls ?? []).forEach((call, index) => {
    content.push({
      type: 'tool-call',
      toolCallId: call.id ?? `call_${place.step}_${place.turn}_${index + 1}`,
      toolName: call.tool,
      input: JSON.stringify(call.input ?? {}),
    });
  });
  const callsTools = turn.toolCalls !== undefined;
  const outputChars = content.reduce(
    (sum, part) =>
      sum + (part.type === 'text' ? part.text.length : part.toolName.length + part.input.length),
    0,
  );
  const usage = turn.usage ?? {
    inputTokens: quarter(JSON.stringify(place.prompt).length),
    outputTokens: quarter(outputChars),
  };
  return {
    content,
    finishReason: callsTools
      ? { unified: 'tool-calls', raw: 'tool_calls' }
      : { unified: 'stop', raw: 'stop' },
    usage: mockUsage(usage.inputTokens, usage.outputTokens),
  };
}

/**
 * The stream parts of an answer, as a provider streams them: `stream-start`,
 * `response-metadata`, the text as `text-start`, one `text-delta` per word (see
 * {@link splitIntoDeltas}) and `text-end`, then one `tool-call` part per call, then `finish`.
 *
 * @example
 * ```ts
 * const parts = turnStreamParts(answer, { id: 'resp_release_1', modelId: 'scripted' });
 * ```
 */
export function turnStreamParts(
  answer: TurnAnswer,
  response: { id: string; modelId: string },
): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: response.id, modelId: response.modelId },
  ];
  answer.content.forEach((part, index) => {
    if (part.type === 'tool-call') {
      parts.push(part);
      return;
    }
    const id = `text_${index + 1}`;
    parts.push({ type: 'text-start', id });
    for (const delta of splitIntoDeltas(part.text)) parts.push({ type: 'text-delta', id, delta });
    parts.push({ type: 'text-end', id });
  });
  parts.push({ type: 'finish', finishReason: answer.finishReason, usage: answer.usage });
  return parts;
}

/**
 * Splits text into stream deltas: each piece ends after a run of whitespace or commas, so
 * prose streams word by word and JSON value by value. The pieces join back to the text.
 *
 * @example
 * ```ts
 * splitIntoDeltas('Deployed to staging.'); // ['Deployed ', 'to ', 'staging.']
 * ```
 */
export function splitIntoDeltas(text: string): string[] {
  return text.match(/[^\s,]*[\s,]+|[^\s,]+$/g) ?? [];
}

function quarter(chars: number): number {
  return Math.max(1, Math.round(chars / 4));
}
