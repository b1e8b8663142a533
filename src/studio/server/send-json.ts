import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * A response of Studio's API: `text` with its content type, its length in bytes, and
 * `cache-control: no-store` (nothing Studio answers from its API may be cached).
 */
export function sendText(
  c: Context,
  status: ContentfulStatusCode,
  text: string,
  type: string,
): Response {
  return c.body(text, status, {
    'content-type': type,
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
  });
}

/** {@link sendText} of `body` as JSON (`application/json; charset=utf-8`). */
export function sendJson(c: Context, status: ContentfulStatusCode, body: unknown): Response {
  return sendText(c, status, JSON.stringify(body), 'application/json; charset=utf-8');
}

/** The path of the request's URL as it was sent, still percent-encoded (`/api/runs/a%2Fb`). */
export function rawPath(c: Context): string {
  return new URL(c.req.url).pathname;
}

/**
 * `text` percent-decoded (`decodeURIComponent`), or undefined when it is not valid
 * percent-encoding (a `%` that does not start a `%XX` escape).
 */
export function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
