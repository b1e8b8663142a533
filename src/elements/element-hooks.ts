import type { SourceLocation } from './element.js';

/**
 * Finds where an element made by `jsx()` stands in the source: `factory` is the runtime
 * function the compiled code called (the frames from it up are not the caller's).
 */
export type SourceFinder = (factory: (...args: never[]) => unknown) => SourceLocation | undefined;

/**
 * Hooks into the JSX runtime, for the interpreter, as Preact's `options`. None is set by
 * default, so `jsx()` costs one property read more than without them. Internal.
 */
export const elementHooks: {
  /**
   * Set while `inspect()` with `details` renders a tree: gives elements from `jsx()` (the
   * automatic runtime of `"jsx": "react-jsx"`, which passes no location) the location
   * `jsxDEV()` would have passed.
   */
  findSource?: SourceFinder;
} = {};
