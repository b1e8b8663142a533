import { createRequire } from 'node:module';

/**
 * The version of the installed `june` package, read from its package.json (by
 * self-reference, so it works from the sources and from `dist/`).
 *
 * @example
 * ```ts
 * packageVersion(); // '0.1.0'
 * ```
 */
export function packageVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('june/package.json') as { version: string }).version;
}
