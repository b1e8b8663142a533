import type { MiddlewareHandler } from 'hono';
import { carriesToken, hostName, tokenCookie, type StudioAccess } from '../studio-access.js';
import { rawPath, sendJson } from './send-json.js';
import type { StudioEnv } from './studio-env.js';

/**
 * The first middleware of every request to Studio, in this order:
 *
 * 1. the `Host` header must name one of `access.allowedHosts`, else 403 (a page on another
 *    site cannot read traces through DNS rebinding);
 * 2. the method must be GET or HEAD, or POST on one of `answeringPaths`, else 405 with an
 *    `allow` header;
 * 3. with `access.token`, an API request (`/api/...`) must carry it, else 401;
 * 4. a request that carries the page token as `?token=` gets it back as an HTTP-only,
 *    same-site cookie, so the page's own API requests carry it.
 *
 * Each refusal is JSON `{ error }` whose message starts with `june: `.
 */
export function admitRequest(
  access: StudioAccess,
  answeringPaths: readonly RegExp[],
): MiddlewareHandler<StudioEnv> {
  return async (c, next) => {
    const hostname = hostName(c.req.header('host') ?? '');
    const { allowedHosts, token } = access;
    if (!allowedHosts.has(hostname)) {
      return sendJson(c, 403, {
        error: `june: Studio answers requests for ${[...allowedHosts].join(', ')}, not for the host ${JSON.stringify(hostname.slice(0, 80))}; open it by the URL it printed, or start it with --allow-host for that name.`,
      });
    }
    const url = new URL(c.req.url);
    const path = rawPath(c);
    const answering = answeringPaths.some((pattern) => pattern.test(path));
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD' && !(answering && method === 'POST')) {
      c.header('allow', answering ? 'GET, HEAD, POST' : 'GET, HEAD');
      return sendJson(c, 405, {
        error: `june: Studio only reads, but for approval answers (POST /api/runs/<runId>/approvals) and, under june dev, starting a run, trying a tool or chatting (POST /api/workflows/<id>/runs, /tools, /chat); ${method} is not allowed on ${path.slice(0, 120)}.`,
      });
    }
    const incoming = c.env.incoming;
    if (token !== undefined && path.startsWith('/api/') && !carriesToken(incoming, url, token)) {
      return sendJson(c, 401, {
        error:
          'june: Studio needs its access token on every API request: open the URL it printed at start (it ends in ?token=...), or send "Authorization: Bearer <token>".',
      });
    }
    await next();
    const pageToken = token ?? access.answerToken;
    if (url.searchParams.has('token') && carriesToken(incoming, url, pageToken)) {
      // the page was opened by its printed URL: its own API requests carry the token as a cookie
      c.res.headers.append(
        'set-cookie',
        `${tokenCookie(incoming.socket.localPort)}=${pageToken}; HttpOnly; SameSite=Strict; Path=/`,
      );
    }
  };
}
