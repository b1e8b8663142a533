import { Hono } from 'hono';
import { StudioRequestError } from '../../host/studio-request-error.js';
import type { StudioAccess } from '../studio-access.js';
import { admitRequest } from './admit-request.js';
import { sendJson } from './send-json.js';
import type { StudioApp, StudioEnv, StudioRouteModule } from './studio-env.js';

/**
 * Studio's web app (Hono): every request first passes `admitRequest` (the `Host` allow-list,
 * the method, the access token), then the route modules, in the order given (put the UI's
 * catch-all last). A POST is allowed only on a module's `answeringPaths`.
 *
 * Errors: a `StudioRequestError` becomes its status with `{ error, code }`; anything else a
 * 500 whose message names the request. A response already streaming is cut off instead.
 *
 * @example
 * ```ts
 * const app = studioApp(access, [eventsRoute(channel), runsRoutes(source), uiRoutes(dir)]);
 * createServer(getRequestListener(app.fetch, { overrideGlobalObjects: false }));
 * ```
 */
export function studioApp(access: StudioAccess, modules: readonly StudioRouteModule[]): StudioApp {
  const app = new Hono<StudioEnv>();
  app.use(
    admitRequest(
      access,
      modules.flatMap((module) => module.answeringPaths ?? []),
    ),
  );
  for (const module of modules) module.mount(app);
  app.onError((error, c) => {
    if (c.env.outgoing.headersSent) {
      c.env.outgoing.destroy();
      return c.body(null);
    }
    if (error instanceof StudioRequestError)
      return sendJson(c, error.status, { error: error.message, code: error.code });
    return sendJson(c, 500, {
      error: `june: Studio failed to answer ${c.req.method} ${c.env.incoming.url}: ${error.message}`,
    });
  });
  return app;
}
