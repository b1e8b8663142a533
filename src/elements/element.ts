import { WorkflowError } from '../errors/june-error.js';

/** Marks June elements; `Symbol.for` so elements from two copies of June still match. */
export const ELEMENT_TYPE: unique symbol = Symbol.for('june.element') as never;

/** Where a `jsxDEV` call stood in the workflow's source, for error messages. */
export interface SourceLocation {
  fileName: string;
  /** 1-based. */
  lineNumber: number;
  /** 1-based. */
  columnNumber: number;
}

/** A React-style key: used for identity among siblings, never passed as a prop. */
export type Key = string | number | bigint;

/**
 * Anything a component may return or an element may hold as a child.
 * `null`, `undefined` and booleans render nothing (so `{cond && <Tool ... />}` works).
 */
export type JuneNode =
  JuneElement | string | number | bigint | boolean | null | undefined | Iterable<JuneNode>;

/**
 * A component: a function of props that returns nodes, synchronously or not.
 * June's own components (`Agent`, `Step`, `Tool`, ...) are also functions, tagged with an
 * internal kind the interpreter dispatches on.
 */
export type Component<P = any> = (props: P) => JuneNode | Promise<JuneNode>;

/**
 * A June element: frozen plain data describing a piece of a workflow.
 * Made only by `jsx`/`jsxs`/`jsxDEV`; an object parsed from JSON can never pass as one,
 * because `$$typeof` is a symbol.
 */
export interface JuneElement<P = any> {
  readonly $$typeof: typeof ELEMENT_TYPE;
  readonly type: Component<P>;
  readonly props: P;
  readonly key: Key | null;
  /** Set by `jsxDEV` (the development runtime) only. */
  readonly source?: SourceLocation;
}

/** True when `value` is an element made by June's JSX runtime. */
export function isElement(value: unknown): value is JuneElement {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { $$typeof?: unknown }).$$typeof === ELEMENT_TYPE
  );
}

/**
 * The one factory behind `jsx`, `jsxs` and `jsxDEV`: every element has the same shape.
 * `key` is taken out of props, as in React.
 *
 * @throws {WorkflowError} `element-type-invalid` when `type` is not a function (a string tag
 *   such as `<div>`, or `undefined` from a missing import).
 */
export function createElement<P>(
  type: Component<P>,
  props: P,
  key?: Key | null,
  source?: SourceLocation,
): JuneElement<P> {
  if (typeof type !== 'function') {
    throw new WorkflowError(
      'element-type-invalid',
      `june: an element's type must be a component function, got ${describeValue(type)}. Use a component as the tag (<Agent>, <Step>, <Tool> or a function of your own); June has no built-in tags such as <div>.`,
    );
  }
  const element = {
    $$typeof: ELEMENT_TYPE,
    type,
    props: Object.freeze(props ?? ({} as P)),
    key: key ?? null,
    ...(source ? { source: Object.freeze({ ...source }) } : {}),
  } as JuneElement<P>;
  return Object.freeze(element);
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? `the string "${value}"` : String(value);
}
