import { AsyncLocalStorage } from 'node:async_hooks';
import { elementHooks } from '../elements/index.js';
import type { SourceLocation } from '../elements/index.js';

/** True inside a render that asked for declarations; the finder answers only there. */
const asked = new AsyncLocalStorage<true>();

/** Renders asking for declarations now, in the whole process. */
let rendering = 0;

/**
 * Runs `render` with elements from `jsx()` (the automatic runtime, `"jsx": "react-jsx"`)
 * recording where they were declared, as `jsxDEV()` elements do: the caller's frame of a
 * stack trace taken at `jsx()`, which names the `.tsx` file where source maps are on (tsx,
 * vitest, `node --enable-source-maps`) and the compiled `.js` file where they are not.
 * Only while a render that asked runs, and only for elements made inside it (other runs of
 * the process at the same time make theirs as before); the finder is unset once the last
 * such render ends, so `run()` never pays for it.
 *
 * @example
 * ```ts
 * await findingDeclarations(() => evaluate(element, { run: frame, parentId: frame.nodeId }));
 * ```
 */
export async function findingDeclarations<T>(render: () => Promise<T>): Promise<T> {
  if (rendering++ === 0) elementHooks.findSource = callerLocation;
  try {
    return await asked.run(true, render);
  } finally {
    if (--rendering === 0) {
      delete elementHooks.findSource;
      asked.disable();
    }
  }
}

/** The frame that called `factory`, as `file`, line and column (1-based), when it has one. */
function callerLocation(factory: (...args: never[]) => unknown): SourceLocation | undefined {
  if (asked.getStore() !== true) return undefined;
  const holder: { stack?: unknown } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 1;
  try {
    Error.captureStackTrace(holder, factory);
  } finally {
    Error.stackTraceLimit = limit;
  }
  // a `prepareStackTrace` of the program's own may make something else than the text
  const frame = typeof holder.stack === 'string' ? holder.stack.split('\n')[1] : undefined;
  const found = frame && /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?\s*$/.exec(frame);
  if (!found) return undefined;
  return { fileName: found[1]!, lineNumber: Number(found[2]), columnNumber: Number(found[3]) };
}
