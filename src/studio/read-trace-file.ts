import { readFile } from 'node:fs/promises';
import type { Trace } from '../trace/trace-node.js';
import { traceProblem } from './trace-problem.js';

/** What {@link readTraceFile} found: a trace (and the file's text), or why it is unreadable. */
export type TraceFileContent = { trace: Trace; text: string } | { unreadable: string };

/**
 * Reads and checks one trace file. Never throws: a file that cannot be read, is empty, is
 * not JSON or is not a June trace comes back as `{ unreadable }` with the reason in a
 * sentence.
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
  if (text.trim() === '') return { unreadable: 'the file is empty; a run that is starting writes it shortly' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    return { unreadable: `not valid JSON (${message}); a file cut short or still being written reads like this` };
  }
  const problem = traceProblem(value);
  if (problem) return { unreadable: `not a June trace: ${problem}` };
  return { trace: value as Trace, text };
}
