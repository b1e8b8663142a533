export { ELEMENT_TYPE, createElement, isElement } from './element.js';
export type { Component, JuneElement, JuneNode, Key, SourceLocation } from './element.js';
export { builtin, kindOf, displayNameOf } from './builtin.js';
export type { BuiltinKind } from './builtin.js';
export { Fragment } from './fragment.js';
export { flattenChildren } from './children.js';
export { notation, locationSuffix } from './notation.js';
export { jsx, jsxs, jsxDEV } from './jsx.js';
export type { JSX } from './jsx-namespace.js';
