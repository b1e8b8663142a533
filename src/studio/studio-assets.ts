import { fileURLToPath } from 'node:url';

/**
 * Where the built UI is by default: `dist/studio/` of the package. From the compiled
 * module (`dist/src/studio/`) that is `../../studio/`; from the TypeScript sources (tests,
 * `tsx`) it is `../../dist/studio/`, built by `npm run build:studio`.
 *
 * @example
 * ```ts
 * defaultAssetsDir(); // '/path/to/node_modules/june/dist/studio'
 * ```
 */
export function defaultAssetsDir(): string {
  const fromSources = import.meta.url.endsWith('.ts');
  return fileURLToPath(
    new URL(fromSources ? '../../dist/studio/' : '../../studio/', import.meta.url),
  ).replace(/[\\/]$/, '');
}
