import { displayNameOf } from './builtin.js';
import type { JuneElement, SourceLocation } from './element.js';

/**
 * Shows an element the way the capability docs write it: `<Tool name="search">`,
 * `<Namespace name="github">`, `<Inherit capabilities={["files"]}>`, `<Files>`.
 * Only a few identifying props are shown, never a bundle's own props (they may hold a
 * command's `cwd` or `env`). Components may define their own notation via `notationProps`.
 */
export function notation(element: JuneElement, shownProps: readonly string[] = []): string {
  const name = displayNameOf(element.type);
  const props = element.props as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of shownProps) {
    if (!(key in props) || props[key] === undefined) continue;
    const value = props[key];
    parts.push(typeof value === 'string' ? `${key}=${JSON.stringify(value)}` : `${key}={${JSON.stringify(value)}}`);
  }
  return parts.length ? `<${name} ${parts.join(' ')}>` : `<${name}>`;
}

/** ` at file.tsx:12:7` when the element came from `jsxDEV`, else an empty string. */
export function locationSuffix(source: SourceLocation | undefined): string {
  return source ? ` at ${source.fileName}:${source.lineNumber}:${source.columnNumber}` : '';
}
