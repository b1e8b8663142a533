import type { Component } from './element.js';

const KIND = Symbol.for('june.kind');
const DISPLAY = Symbol.for('june.display');

/** The kinds of June's own components; the interpreter dispatches on these, never on names. */
export type BuiltinKind =
  | 'fragment'
  | 'agent'
  | 'step'
  | 'tool'
  | 'inherit'
  | 'namespace'
  | 'require-approval'
  | 'bundle'
  | 'declaration'
  | 'catch'
  | 'guard'
  | 'parallel'
  | 'budget';

/** Tags `fn` as one of June's own components. Internal. */
export function builtin<F extends Component>(kind: BuiltinKind, displayName: string, fn: F): F {
  Object.defineProperty(fn, KIND, { value: kind });
  Object.defineProperty(fn, DISPLAY, { value: displayName });
  return fn;
}

/** The built-in kind of a component, or `undefined` for a user component. */
export function kindOf(type: unknown): BuiltinKind | undefined {
  return typeof type === 'function'
    ? (type as unknown as Record<symbol, BuiltinKind | undefined>)[KIND]
    : undefined;
}

/** The name to show for a component in messages: `Agent`, `Files`, `MyComponent`. */
export function displayNameOf(type: unknown): string {
  if (typeof type !== 'function') return String(type);
  const shown = (type as unknown as Record<symbol, string | undefined>)[DISPLAY];
  return shown ?? (type.name || 'Anonymous');
}
