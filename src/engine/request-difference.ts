import { stableJson } from '../json/stable-json.js';

type Json = unknown;
type Message = { role?: string; content?: unknown };

const SHOWN_CHARS = 120;

/**
 * The first difference between a recorded model request and the one made now, in words,
 * both sides shown: the first message that differs (its number, role and text around the
 * first differing character), else the tools offered, else the first other setting.
 *
 * @example
 * ```ts
 * firstRequestDifference(
 *   { prompt: [{ role: 'user', content: [{ type: 'text', text: 'Say hi' }] }] },
 *   { prompt: [{ role: 'user', content: [{ type: 'text', text: 'Say bye' }] }] },
 * ); // 'message 1 (user): recorded "Say hi", now "Say bye"'
 * ```
 */
export function firstRequestDifference(recorded: Json, current: Json): string {
  const before = asObject(recorded);
  const after = asObject(current);
  const prompts = [asArray(before.prompt), asArray(after.prompt)] as const;
  for (let i = 0; i < Math.max(prompts[0].length, prompts[1].length); i++) {
    const [a, b] = [prompts[0][i] as Message | undefined, prompts[1][i] as Message | undefined];
    if (stableJson(a) === stableJson(b)) continue;
    const role = b?.role ?? a?.role ?? 'message';
    return `message ${i + 1} (${role}): ${sides(messageText(a), messageText(b))}`;
  }
  const tools = [asArray(before.tools), asArray(after.tools)] as const;
  const names = [tools[0].map(toolName), tools[1].map(toolName)] as const;
  if (names[0].join(',') !== names[1].join(','))
    return `the tools: recorded [${names[0].join(', ')}], now [${names[1].join(', ')}]`;
  for (let i = 0; i < tools[0].length; i++) {
    if (stableJson(tools[0][i]) !== stableJson(tools[1][i])) {
      return `the definition of the tool "${names[0][i]}": ${sides(stableJson(tools[0][i]), stableJson(tools[1][i]))}`;
    }
  }
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((key) => key !== 'prompt' && key !== 'tools')
    .sort();
  for (const key of keys) {
    const [a, b] = [stableJson(before[key]), stableJson(after[key])];
    if (a !== b)
      return `the setting "${key}": recorded ${before[key] === undefined ? '(none)' : clip(a, 0)}, now ${after[key] === undefined ? '(none)' : clip(b, 0)}`;
  }
  return 'none found (the requests differ only in how they were written)';
}

/** `recorded "…", now "…"`, each side clipped around the first character where they differ. */
function sides(a: string | undefined, b: string | undefined): string {
  if (a === undefined) return `recorded (no such message), now ${JSON.stringify(clip(b ?? '', 0))}`;
  if (b === undefined) return `recorded ${JSON.stringify(clip(a, 0))}, now (no such message)`;
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  return `recorded ${JSON.stringify(clip(a, at))}, now ${JSON.stringify(clip(b, at))}`;
}

function clip(text: string, at: number): string {
  const start = Math.max(0, at - 40);
  const end = Math.min(text.length, start + SHOWN_CHARS);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

/** A message's content as text: its text parts, tool calls as `name(input)`, tool results as `name → output`. */
function messageText(message: Message | undefined): string | undefined {
  if (message === undefined) return undefined;
  const content = message.content;
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((raw) => {
      const part = asObject(raw);
      switch (part.type) {
        case 'text':
        case 'reasoning':
          return String(part.text);
        case 'tool-call':
          return `${String(part.toolName)}(${typeof part.input === 'string' ? part.input : stableJson(part.input)})`;
        case 'tool-result':
          return `${String(part.toolName)} → ${stableJson(asObject(part.output).value ?? part.output)}`;
        default:
          return stableJson(part);
      }
    })
    .join(' ');
}

function toolName(tool: unknown): string {
  return String(asObject(tool).name);
}

function asObject(value: Json): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function asArray(value: Json): unknown[] {
  return Array.isArray(value) ? value : [];
}
