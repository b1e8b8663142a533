import { builtin } from './builtin.js';
import type { JuneNode } from './element.js';

/** Groups children without adding anything: `<>...</>`. Transparent everywhere. */
export const Fragment = builtin(
  'fragment',
  'Fragment',
  (props: { children?: JuneNode }): JuneNode => props.children,
);
