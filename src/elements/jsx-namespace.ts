import type { JuneElement, JuneNode } from './element.js';

/**
 * June's JSX types. TypeScript finds them through `jsxImportSource: "june"`; they are never
 * global, so June and React can live in one project.
 */
// TypeScript looks JSX types up in a namespace named JSX exported beside the jsx factory.
// eslint-disable-next-line @typescript-eslint/no-namespace
export namespace JSX {
  /** What a JSX expression evaluates to. */
  export type Element = JuneElement;
  /** Components may be async: a workflow component can await before returning its tree. */
  export type ElementType = (props: any) => JuneNode | Promise<JuneNode>;
  /** June has no intrinsic (lower-case) elements. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- TypeScript's JSX contract
  export interface IntrinsicElements {}
  export interface ElementChildrenAttribute {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- only the name matters
    children: {};
  }
  /** `key` is accepted on every element. */
  export interface IntrinsicAttributes {
    key?: string | number | bigint;
  }
}
