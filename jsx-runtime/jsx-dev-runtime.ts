/** June's development JSX runtime: like `jsx-runtime`, plus source locations for errors. */
export { jsxDEV } from '../src/elements/jsx.js';
export { Fragment } from '../src/elements/fragment.js';
export type { JSX } from '../src/elements/jsx-namespace.js';
