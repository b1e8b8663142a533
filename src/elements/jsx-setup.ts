import { WorkflowError } from '../errors/june-error.js';
import { displayNameOf } from './builtin.js';

/** The markers React's runtimes put on elements (React 18 and before, React 19 on). */
const reactMarkers = new Set<unknown>([
  Symbol.for('react.element'),
  Symbol.for('react.transitional.element'),
]);

/** The settings June's JSX needs, said once for every place that reports a wrong setup. */
export const jsxSettings =
  'set "jsx": "react-jsx" and "jsxImportSource": "june" in the compilerOptions of tsconfig.json (and make its "include" cover the file); ' +
  "under vitest, set oxc: { jsx: { runtime: 'automatic', importSource: 'june' } } in vitest.config.ts";

/**
 * True when `value` is an element made by React's JSX runtime (`$$typeof` is
 * `Symbol.for('react.element')` or `Symbol.for('react.transitional.element')`): the
 * workflow's JSX was compiled for React, not June.
 */
export function isReactElement(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    reactMarkers.has((value as { $$typeof?: unknown }).$$typeof)
  );
}

/**
 * The error for a React element found where June expects its own: the JSX was compiled with
 * React's runtime (`jsxImportSource` unset, or `React.createElement`).
 *
 * @example
 * ```ts
 * if (isReactElement(child)) throw reactElementError(child);
 * ```
 */
export function reactElementError(element: unknown): WorkflowError {
  const type = (element as { type?: unknown }).type;
  const name = typeof type === 'string' ? type : displayNameOf(type);
  return new WorkflowError(
    'jsx-runtime-react',
    `june: the workflow holds a React element (<${name}>), not a June element: its JSX was compiled with React's runtime. To compile it with June's, ${jsxSettings}.`,
  );
}

/**
 * What to change when an error shows that a file's JSX was compiled with the wrong settings:
 * React's runtime (`React is not defined`, `Cannot find package 'react/jsx-runtime'`), or
 * `"jsxImportSource": "june/jsx-runtime"` (Node then looks for `june/jsx-runtime/jsx-runtime`).
 * `undefined` when the error says nothing of the kind.
 *
 * @example
 * ```ts
 * jsxSetupFix(`Cannot find package 'react/jsx-dev-runtime' imported from /p/flow.tsx`);
 * // 'its JSX was compiled for React (...): set "jsx": "react-jsx" and ...'
 * ```
 */
export function jsxSetupFix(message: string): string | undefined {
  if (
    /['"]\.\/jsx-runtime\/jsx-(?:dev-)?runtime['"] is not defined by "exports"|june\/jsx-runtime\/jsx-(?:dev-)?runtime/.test(
      message,
    )
  ) {
    return '"jsxImportSource" is "june/jsx-runtime", but it takes the package name: set "jsxImportSource": "june" (the compiler adds /jsx-runtime itself)';
  }
  const react =
    /\bReact is not defined\b|Cannot find (?:package|module) ['"]react(?:\/jsx-(?:dev-)?runtime)?['"]/.exec(
      message,
    );
  if (react) return `its JSX was compiled for React (${react[0]}): ${jsxSettings}`;
  return undefined;
}
