/** June's automatic JSX runtime (`jsxImportSource: "june"`). Imports nothing from `ai`. */
export { jsx, jsxs } from '../src/elements/jsx.js';
export { Fragment } from '../src/elements/fragment.js';
export type { JSX } from '../src/elements/jsx-namespace.js';
