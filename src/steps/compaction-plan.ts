import type { ModelMessage } from 'ai';

/** The bound of a conversation (`<Agent compact>`'s numbers). */
export interface CompactionBound {
  maxMessages?: number;
  maxTokens?: number;
  keep?: number;
}

/**
 * What a compaction does to a conversation: `pinned` (its system messages) stay first, then
 * the summary of `dropped`, then `kept` as they were.
 */
export interface CompactionPlan {
  pinned: ModelMessage[];
  dropped: ModelMessage[];
  kept: ModelMessage[];
}

/** Characters per estimated token. */
const CHARS_PER_TOKEN = 4;
/** Estimated tokens of an image or a file part. */
const FILE_TOKENS = 1000;

const estimates = new WeakMap<object, number>();

/**
 * A message's estimated tokens, the same for every provider: one per four characters of its
 * text, of its tool inputs and outputs as JSON, and 1,000 per image or file. Kept per
 * message, so a long run estimates each message once.
 */
export function estimateTokens(message: ModelMessage): number {
  const known = estimates.get(message);
  if (known !== undefined) return known;
  const { content } = message;
  let chars = 0;
  let files = 0;
  if (typeof content === 'string') chars = content.length;
  else
    for (const part of content as Array<Record<string, unknown>>) {
      if (part.type === 'image' || part.type === 'file') files++;
      else if (typeof part.text === 'string') chars += part.text.length;
      else chars += jsonLength(part);
    }
  const tokens = Math.ceil(chars / CHARS_PER_TOKEN) + files * FILE_TOKENS;
  estimates.set(message, tokens);
  return tokens;
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

/** The estimated tokens of messages ({@link estimateTokens}). */
export function estimateAll(messages: readonly ModelMessage[]): number {
  let sum = 0;
  for (const message of messages) sum += estimateTokens(message);
  return sum;
}

/**
 * Whether `messages` with the next step's prompt `next` (if any) pass the bound, and if so what to
 * replace: the oldest messages up to a cut that keeps the `keep` most recent (by default half
 * of `maxMessages`, or the recent messages that fit in half of `maxTokens`). The cut never
 * falls between a tool call and its result (or its approval's answer): it moves forward to
 * the nearest boundary that splits none (keeping fewer messages, so the bound still holds),
 * or back when there is none after (without `next`, within a step's tool loop, the latest
 * message is always kept, with the call it answers). Undefined when the bound holds or nothing can be replaced.
 */
export function planCompaction(
  messages: readonly ModelMessage[],
  next: ModelMessage | undefined,
  bound: CompactionBound,
): CompactionPlan | undefined {
  const count = messages.length + (next ? 1 : 0);
  const over =
    (bound.maxMessages !== undefined && count > bound.maxMessages) ||
    (bound.maxTokens !== undefined &&
      estimateAll(messages) + (next ? estimateTokens(next) : 0) > bound.maxTokens);
  if (!over) return undefined;
  const target = messages.length - keepCount(messages, bound);
  const valid = validCuts(messages);
  const drops = (i: number) => messages.slice(0, i).some((m) => m.role !== 'system');
  // forward first: a cut later than asked keeps fewer messages, never more than the bound
  // allows; within a step (no next prompt) never all of them, since the model would lose
  // the turn it is in: then back
  const last = next ? messages.length : messages.length - 1;
  let cut = -1;
  for (let i = Math.max(target, 1); i <= last; i++)
    if (valid[i] && drops(i)) {
      cut = i;
      break;
    }
  if (cut < 1)
    for (let i = Math.min(target, last); i >= 1; i--)
      if (valid[i] && drops(i)) {
        cut = i;
        break;
      }
  if (cut < 1) return undefined;
  const before = messages.slice(0, cut);
  const dropped = before.filter((m) => m.role !== 'system');
  if (dropped.length === 0) return undefined;
  return {
    pinned: before.filter((m) => m.role === 'system'),
    dropped,
    kept: messages.slice(cut),
  };
}

/** How many recent messages to keep. */
function keepCount(messages: readonly ModelMessage[], bound: CompactionBound): number {
  if (bound.keep !== undefined) return bound.keep;
  let keep = messages.length;
  if (bound.maxMessages !== undefined) keep = Math.min(keep, Math.floor(bound.maxMessages / 2));
  if (bound.maxTokens !== undefined) {
    const budget = bound.maxTokens / 2;
    let used = 0;
    let fit = 0;
    for (let i = messages.length - 1; i >= 0; i--) {
      used += estimateTokens(messages[i]!);
      if (used > budget) break;
      fit++;
    }
    keep = Math.min(keep, fit);
  }
  return keep;
}

/**
 * For each index `i` (0 to length), whether cutting before message `i` keeps every tool call
 * with its results and its approval's answer: no call before the cut has its result at or
 * after it, and the message at the cut is not a tool message.
 */
function validCuts(messages: readonly ModelMessage[]): boolean[] {
  const callAt = new Map<string, number>();
  const lastAt = new Map<string, number>();
  const approvalCall = new Map<string, string>();
  messages.forEach((message, index) => {
    if (typeof message.content === 'string') return;
    for (const part of message.content as Array<Record<string, unknown>>) {
      const id = typeof part.toolCallId === 'string' ? part.toolCallId : undefined;
      if (part.type === 'tool-call' && id !== undefined) {
        if (!callAt.has(id)) callAt.set(id, index);
        lastAt.set(id, index);
      } else if (part.type === 'tool-approval-request' && typeof part.approvalId === 'string') {
        if (id !== undefined) {
          approvalCall.set(part.approvalId, id);
          lastAt.set(id, index);
        }
      } else if (part.type === 'tool-approval-response' && typeof part.approvalId === 'string') {
        const call = approvalCall.get(part.approvalId) ?? id;
        if (call !== undefined) lastAt.set(call, index);
      } else if (part.type === 'tool-result' && id !== undefined) lastAt.set(id, index);
    }
  });
  // a cut at i splits a call opened at c and last answered at r when c < i <= r
  const opened = new Array<number>(messages.length + 2).fill(0);
  for (const [id, first] of callAt) {
    const last = lastAt.get(id) ?? first;
    if (last > first) {
      opened[first + 1]! += 1;
      opened[last + 1]! -= 1;
    }
  }
  const valid: boolean[] = [];
  let open = 0;
  for (let i = 0; i <= messages.length; i++) {
    open += opened[i]!;
    valid.push(open === 0 && messages[i]?.role !== 'tool');
  }
  return valid;
}

/**
 * The messages as plain text for a summarizing model, whatever its provider: one line or
 * paragraph per text, tool call and tool result (`assistant called lookup({"n":1})`), files
 * named by their media type. A model that is not sent them as messages needs no tool
 * definitions and sees no call without its result.
 */
export function transcriptOf(messages: readonly ModelMessage[]): string[] {
  const lines: string[] = [];
  for (const message of messages) {
    const { role, content } = message;
    if (typeof content === 'string') {
      lines.push(`${role}: ${content}`);
      continue;
    }
    for (const part of content as Array<Record<string, unknown>>) {
      if (part.type === 'text' && typeof part.text === 'string')
        lines.push(`${role}: ${part.text}`);
      else if (part.type === 'tool-call')
        lines.push(`${role} called ${String(part.toolName)}(${json(part.input)})`);
      else if (part.type === 'tool-result')
        lines.push(`tool ${String(part.toolName)} returned: ${json(resultValue(part.output))}`);
      else if (part.type === 'tool-approval-response')
        lines.push(`user ${part.approved === true ? 'approved' : 'denied'} a tool call`);
      else if (part.type === 'image' || part.type === 'file')
        lines.push(`${role}: [${String(part.mediaType ?? part.type)}]`);
    }
  }
  return lines;
}

/** A tool result's value: `{ type: 'json', value }` and the like read as their value. */
function resultValue(output: unknown): unknown {
  if (typeof output === 'object' && output !== null && 'value' in output)
    return (output as { value: unknown }).value;
  return output;
}

function json(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The transcript's lines in chunks of at most `maxTokens` estimated tokens each (a line
 * longer than that is a chunk of its own); one chunk without a bound.
 */
export function transcriptChunks(lines: readonly string[], maxTokens?: number): string[] {
  if (maxTokens === undefined) return [lines.join('\n')];
  const chunks: string[] = [];
  let current: string[] = [];
  let chars = 0;
  const limit = maxTokens * CHARS_PER_TOKEN;
  for (const line of lines) {
    if (current.length > 0 && chars + line.length + 1 > limit) {
      chunks.push(current.join('\n'));
      current = [];
      chars = 0;
    }
    current.push(line);
    chars += line.length + 1;
  }
  if (current.length > 0) chunks.push(current.join('\n'));
  return chunks;
}
