import { readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Answers a GET for one file of the built UI under `assetsDir` (`/` is `index.html`).
 * Paths that leave `assetsDir` (`/../x`, encoded or not) get 404, like files that do not
 * exist. Hashed files under `/assets/` are cached for a year; everything else is
 * revalidated on each load.
 *
 * @param pathname - the URL's path, still percent-encoded.
 * @returns false when no such file exists (the response is untouched).
 * @example
 * ```ts
 * if (!(await serveStaticFile(response, 'dist/studio', url.pathname))) notFound(response);
 * ```
 */
export async function serveStaticFile(
  response: ServerResponse,
  assetsDir: string,
  pathname: string,
  headOnly = false,
): Promise<boolean> {
  let relative: string;
  try {
    relative = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  if (relative.includes('\0')) return false;
  if (relative === '/' || relative === '') relative = '/index.html';
  const root = normalize(assetsDir + sep);
  const path = normalize(join(root, relative));
  if (!path.startsWith(root)) return false;
  try {
    if (!(await stat(path)).isFile()) return false;
    const body = await readFile(path);
    response.writeHead(200, {
      'content-type': TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': relative.startsWith('/assets/')
        ? 'public, max-age=31536000, immutable'
        : 'no-cache',
      'x-content-type-options': 'nosniff',
    });
    response.end(headOnly ? undefined : body);
    return true;
  } catch {
    return false;
  }
}
