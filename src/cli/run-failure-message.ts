import { relative } from 'node:path';
import { jsxSetupFix } from '../elements/index.js';
import { errorMessage, JuneError } from '../errors/index.js';
import { oneLine } from './format.js';
import type { LoadedWorkflow } from './load-workflow.js';

/**
 * The one line `june run` prints on stderr for a run that failed: June's own message (it
 * starts with `june: `), or, for an error thrown by the workflow's own code,
 * `june: the workflow failed: <message> (at <file>:<line>:<column>)` with the first place in
 * the workflow's folder the stack names. An error that shows the file was compiled for
 * React's JSX says which tsconfig to fix. Places are given from `options.from` (default the
 * current folder), as `june dev` gives them from its project folder.
 *
 * @example
 * ```ts
 * process.stderr.write(`${runFailureMessage(error, workflow)}\n`);
 * ```
 */
export function runFailureMessage(
  error: unknown,
  workflow: Pick<LoadedWorkflow, 'file' | 'label' | 'tsconfig'>,
  options: { from?: string } = {},
): string {
  const from = options.from ?? process.cwd();
  const message = errorMessage(error);
  if (JuneError.isInstance(error)) {
    // June's wrapper around the workflow's own error (a prompt function that threw): where it threw
    const cause = (error as { cause?: unknown }).cause;
    const at =
      error.code === 'step-prompt-failed' && cause instanceof Error
        ? placeInWorkflow(cause, workflow.file, from)
        : undefined;
    return oneLine(`${message}${at ? ` (at ${at})` : ''}`);
  }
  const fix = jsxSetupFix(message);
  if (fix !== undefined)
    return oneLine(
      `june: ${workflow.label} was compiled with ${relative(from, workflow.tsconfig) || workflow.tsconfig}, and ${fix}.`,
    );
  const at = placeInWorkflow(error, workflow.file, from);
  return oneLine(`june: the workflow failed: ${message}${at ? ` (at ${at})` : ''}`);
}

function placeInWorkflow(error: unknown, file: string, from: string): string | undefined {
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  const folder = file.slice(0, file.lastIndexOf('/') + 1);
  for (const line of stack.split('\n').slice(1)) {
    const match = /\(?((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?\s*$/.exec(line);
    if (!match) continue;
    // a fresh copy of a module (june dev's reloads) has its loader's query after the path
    const path = match[1]!.replace(/^file:\/\//, '').replace(/\?.*$/, '');
    if (path.startsWith(folder) && !path.includes('/node_modules/'))
      return `${relative(from, path) || path}:${match[2]}:${match[3]}`;
  }
  return undefined;
}
