import { serveStatic } from '@hono/node-server/serve-static';
import { rawPath, sendJson, sendText } from '../server/send-json.js';
import type { StudioRouteModule } from '../server/studio-env.js';

/**
 * The built UI and what no route answered, mounted last:
 *
 * - `GET /api/...` that no module answered → 404 `{ error }`;
 * - `GET /<file>` → a file of the built UI under `assetsDir` (`/` is `index.html`), by
 *   `serveStatic`, which refuses a path with `..`, `\`, doubled slashes or percent-escapes
 *   (encoded or not, such a path never leaves `assetsDir`); hashed files under `/assets/`
 *   are cached for a year, everything else is revalidated on each load;
 * - anything else → 404 text.
 */
export function uiRoutes(assetsDir: string): StudioRouteModule {
  return {
    mount(app) {
      app.all('/api/*', (c) =>
        sendJson(c, 404, {
          error: `june: no Studio API at ${rawPath(c)}; the API is /api/runs, /api/runs/<runId> and /api/events.`,
        }),
      );
      app.get(
        '*',
        async (c, next) => {
          c.header('x-content-type-options', 'nosniff');
          c.header(
            'cache-control',
            c.req.path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
          await next();
        },
        serveStatic({ root: assetsDir }),
      );
      app.all('*', (c) =>
        sendText(
          c,
          404,
          `june: Studio has no page at ${rawPath(c)}.\n`,
          'text/plain; charset=utf-8',
        ),
      );
    },
  };
}
