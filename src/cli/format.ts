import type { LanguageModelUsage } from 'ai';
import { usageTotal } from '../models/usage.js';

/** A duration for people (see the shared helper). */
export { formatDuration } from '../trace/format-duration.js';

/**
 * Token usage for people: `1,234 tokens (1,100 in, 134 out)`; `no tokens` when no model call
 * reported any.
 *
 * @example
 * ```ts
 * formatTokens({ inputTokens: 100, outputTokens: 20, totalTokens: 120 } as LanguageModelUsage); // '120 tokens (100 in, 20 out)'
 * ```
 */
export function formatTokens(usage: LanguageModelUsage | undefined): string {
  const input = usage?.inputTokens;
  const output = usage?.outputTokens;
  const total = usageTotal(usage);
  if (total === undefined) return 'no tokens';
  const n = (value: number) => value.toLocaleString('en-US');
  const split =
    input !== undefined || output !== undefined
      ? ` (${n(input ?? 0)} in, ${n(output ?? 0)} out)`
      : '';
  return `${n(total)} ${total === 1 ? 'token' : 'tokens'}${split}`;
}

/**
 * A JSON value on one line, cut to `maxChars` characters with `…` at the end.
 *
 * @param maxChars - the longest result, in characters. @default 120
 * @example
 * ```ts
 * compactJson({ env: 'staging' }); // '{"env":"staging"}'
 * ```
 */
export function compactJson(value: unknown, maxChars = 120): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

/**
 * An error message on one line: newlines and runs of spaces become one space.
 *
 * @example
 * ```ts
 * oneLine('Transform failed with 1 error:\nwf.tsx:3:1: ERROR: ...'); // 'Transform failed with 1 error: wf.tsx:3:1: ERROR: ...'
 * ```
 */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A tool error for an input the tool's schema refuses (the AI SDK's
 * `AI_InvalidToolInputError`, its issues listed after `Error message:`) as one line naming
 * each issue's path and message; undefined for any other error.
 *
 * @example
 * ```ts
 * toolInputRefusal(error.message); // "its input does not fit the tool's input schema (env: expected string, received number)"
 * ```
 */
export function toolInputRefusal(message: string): string | undefined {
  if (!message.includes('AI_InvalidToolInputError')) return undefined;
  const issues = /Error message: (\[[\s\S]*\])\s*$/.exec(message)?.[1];
  let listed: string[] = [];
  try {
    listed = (JSON.parse(issues ?? '[]') as { path?: unknown[]; message?: string }[]).map(
      (issue) =>
        `${issue.path?.length ? `${issue.path.join('.')}: ` : ''}${(issue.message ?? '').replace(/^Invalid input: /, '')}`,
    );
  } catch {
    // not the AI SDK's list: saying the schema refused it is enough
  }
  return `its input does not fit the tool's input schema${listed.length ? ` (${listed.join('; ')})` : ''}`;
}
