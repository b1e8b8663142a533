import {
  createElement,
  type Component,
  type JuneElement,
  type Key,
  type SourceLocation,
} from './element.js';

/** The automatic runtime's factory for an element with zero or one child. */
export function jsx<P>(type: Component<P>, props: P, key?: Key): JuneElement<P> {
  return createElement(type, props, key);
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
