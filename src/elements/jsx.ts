import {
  createElement,
  type Component,
  type JuneElement,
  type Key,
  type SourceLocation,
} from './element.js';
import { elementHooks } from './element-hooks.js';

/**
 * The automatic runtime's factory for an element with zero or one child. It gets no source
 * location; while `inspect()` with `details` renders, {@link elementHooks} finds one.
 */
export function jsx<P>(type: Component<P>, props: P, key?: Key): JuneElement<P> {
  const { findSource } = elementHooks;
  return createElement(type, props, key, findSource === undefined ? undefined : findSource(jsx));
}

/** The automatic runtime's factory for an element with several static children. */
export const jsxs = jsx;

/** The development runtime's factory: also keeps where the element stands in the source. */
export function jsxDEV<P>(
  type: Component<P>,
  props: P,
  key: Key | undefined,
  _isStaticChildren: boolean,
  source?: SourceLocation,
  _self?: unknown,
): JuneElement<P> {
  return createElement(type, props, key, source);
}
