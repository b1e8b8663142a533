import { isElement, type JuneElement, type JuneNode } from './element.js';
import { isReactElement, reactElementError } from './jsx-setup.js';

/**
 * Flattens a children value into elements, in document order: arrays and other iterables
 * are walked, `null`/`undefined`/booleans dropped. Text is returned as a string so callers
 * can say where it is not allowed. Fragments are NOT opened here (callers decide).
 *
 * @throws {WorkflowError} `jsx-runtime-react` for an element made by React's JSX runtime.
 */
export function flattenChildren(
  node: JuneNode,
  out: Array<JuneElement | string> = [],
): Array<JuneElement | string> {
  if (node === null || node === undefined || typeof node === 'boolean') return out;
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint') {
    const text = String(node);
    if (text.trim() !== '') out.push(text);
    return out;
  }
  if (isElement(node)) {
    out.push(node);
    return out;
  }
  if (typeof (node as Iterable<JuneNode>)[Symbol.iterator] === 'function') {
    for (const child of node as Iterable<JuneNode>) flattenChildren(child, out);
    return out;
  }
  if (isReactElement(node)) throw reactElementError(node);
  out.push(String(node));
  return out;
}
