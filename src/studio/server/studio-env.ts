import type { HttpBindings } from '@hono/node-server';
import type { Hono } from 'hono';

/**
 * The Hono environment of Studio's app: it runs on Node's HTTP server (`@hono/node-server`),
 * so a handler reaches the raw `incoming` request (its socket's local port names the token
 * cookie) as `c.env.incoming`.
 */
export interface StudioEnv {
  Bindings: HttpBindings;
}

/** Studio's Hono app, as each route module receives it to mount its routes on. */
export type StudioApp = Hono<StudioEnv>;

/**
 * One concern of Studio's server: it mounts its routes on the app. `answeringPaths` lists
 * the paths (matched against the URL's path, still percent-encoded) where the module takes
 * POSTs: those pass the method check and must be guarded by the `answering` middleware.
 */
export interface StudioRouteModule {
  mount(app: StudioApp): void;
  answeringPaths?: readonly RegExp[];
}
