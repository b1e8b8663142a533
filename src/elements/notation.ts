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
    parts.push(
      typeof value === 'string'
        ? `${key}=${JSON.stringify(value)}`
        : `${key}={${JSON.stringify(value)}}`,
    );
  }
  return parts.length ? `<${name} ${parts.join(' ')}>` : `<${name}>`;
}

/**
 * ` at flow.tsx:12:7` when the element came from `jsxDEV`, else an empty string. The file is
 * shown from the current directory (`workflows/flow.tsx`) when it lies inside it, else as
 * the compiler gave it.
 */
export function locationSuffix(source: SourceLocation | undefined): string {
  return source
    ? ` at ${shownFile(source.fileName)}:${source.lineNumber}:${source.columnNumber}`
    : '';
}

function shownFile(fileName: string): string {
  const cwd =
    typeof process === 'object' && typeof process.cwd === 'function' ? process.cwd() : undefined;
  if (cwd === undefined) return fileName;
  const path = fileName.startsWith('file://')
    ? decodeURIComponent(fileName.slice('file://'.length))
    : fileName;
  const folder =
    cwd.endsWith('/') || cwd.endsWith('\\')
      ? cwd
      : `${cwd}${cwd.includes('\\') && !cwd.includes('/') ? '\\' : '/'}`;
  return path.startsWith(folder) ? path.slice(folder.length).split('\\').join('/') : fileName;
}
