import type { MiddlewareHandler } from 'hono';
import { checkAnswering } from '../answer-request.js';
import type { StudioAccess } from '../studio-access.js';
import type { StudioEnv } from './studio-env.js';

/**
 * The admission of every request that changes something (answering an approval, and any
 * POST a route module adds: starting a run, trying a tool, chatting): it must come from
 * Studio's own page (`Sec-Fetch-Site: same-origin`, an `Origin` naming the very `Host`
 * addressed) and carry `access.answerToken`, as `checkAnswering` says. Put it in front of
 * the handler of each such route; the `Host` check and the method check (see
 * `admitRequest`) have run before it.
 *
 * @throws {StudioRequestError} `studio-request-refused`: 403 from another site, 401 without
 *   the token (the app's error handler makes it the JSON answer).
 * @example
 * ```ts
 * app.post('/api/workflows/:id/runs', answering(access), startRun);
 * ```
 */
export function answering(access: StudioAccess): MiddlewareHandler<StudioEnv> {
  return async (c, next) => {
    checkAnswering(access, c.env.incoming, new URL(c.req.url));
    await next();
  };
}
