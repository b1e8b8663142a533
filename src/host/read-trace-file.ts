import { readFile } from 'node:fs/promises';
import type { Trace } from '../trace/trace-node.js';
import { traceProblem } from './trace-problem.js';

/** What {@link readTraceFile} found: a trace (and the file's text), or why it is unreadable. */
export type TraceFileContent = { trace: Trace; text: string } | { unreadable: string };

/**
 * Reads and checks one trace file. Never throws: a file that cannot be read, is empty, is
 * not JSON or is not a June trace comes back as `{ unreadable }` with the reason in a
 * sentence that describes the file and never quotes it.
 *
 * @example
 * ```ts
 * const content = await readTraceFile('.june/runs/20261129-185225-4f2a.json');
 * if ('trace' in content) console.log(content.trace.status);
 * else console.log(`unreadable: ${content.unreadable}`);
 * ```
 */
export async function readTraceFile(path: string): Promise<TraceFileContent> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { unreadable: `the file could not be read (${code ?? (error as Error).message})` };
  }
  if (text.trim() === '')
    return { unreadable: 'the file is empty; a run that is starting writes it shortly' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      unreadable: `not valid JSON (${jsonFault(error, text)}); a file cut short or still being written reads like this`,
    };
  }
  const problem = traceProblem(value);
  if (problem) return { unreadable: `not a June trace: ${problem}` };
  return { trace: value as Trace, text };
}

/**
 * Where a text stops being JSON, described without quoting it: the parser's own message
 * quotes the text (a file linked to a secret would show its first characters).
 */
function jsonFault(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : '';
  const length = `${text.length.toLocaleString('en-US')} characters`;
  if (/end of JSON input|Unterminated/i.test(message)) return `it ends early, after ${length}`;
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position !== undefined)
    return `it stops being JSON at character ${Number(position).toLocaleString('en-US')} of ${length}`;
  return `an unexpected character in ${length}`;
}
