import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { SystemError } from '../errors/index.js';
import { getRequestListener } from '@hono/node-server';
import { EventChannel } from './event-channel.js';
import { approvalsRoutes } from './routes/approvals-routes.js';
import { eventsRoute } from './routes/events-route.js';
import { runsRoutes } from './routes/runs-routes.js';
import { uiRoutes } from './routes/ui-routes.js';
import { workflowsRoutes } from './routes/workflows-routes.js';
import { studioApp } from './server/studio-app.js';
import type { WorkflowCatalog } from '../workflows/workflow-catalog.js';
import { studioAccess } from './studio-access.js';
import { defaultAssetsDir } from './studio-assets.js';
import { openRunHost } from '../host/open-run-host.js';
import type { RunHost } from '../host/run-host.js';
import type { WorkbenchCatalog } from '../workflows/workbench-catalog.js';
import { WorkbenchChat } from './workbench-chat.js';
import type { WorkbenchPlaces } from './start-workflow-run.js';
import { ProcessSlots } from './process-slots.js';
import { workbenchRoutes } from './routes/workbench-routes.js';
import { forkRoutes } from './routes/fork-routes.js';
import type { StudioForks } from './fork-workflow-run.js';

/** Options of {@link startStudio}. */
export interface StudioOptions {
  /** The directory of trace files that `june run` writes. It may not exist yet. @default ".june/runs" */
  dir?: string;
  /** The TCP port; 0 picks a free one (see `url`). @default 4000 */
  port?: number;
  /**
   * The address to listen on. Studio shows prompts, tool inputs and outputs, so it stays on
   * this machine unless you say otherwise (e.g. `0.0.0.0` inside a container). Beyond
   * loopback, every API request needs the access token (see `token`).
   * @default "127.0.0.1"
   */
  host?: string;
  /**
   * More host names that requests may address (the `Host` header), besides the ones of the
   * bound address: e.g. the DNS name Studio is reached by. @default none
   */
  allowHosts?: string[];
  /**
   * The access token every API request must carry (`Authorization: Bearer`, `?token=`, or
   * the cookie the page gets when opened by `url`). @default a random one when `host` is
   * not a loopback address; none on loopback
   */
  token?: string;
  /** The built UI. @default the package's `dist/studio` (built by `npm run build:studio`) */
  assetsDir?: string;
  /** How often to look at `dir` even when `fs.watch` reports nothing (or to read `database`'s list), in ms. @default 1000 */
  pollIntervalMs?: number;
  /**
   * A PostgreSQL URL of runs over DBOS (`june worker --database`): Studio lists the
   * database's runs instead of `dir`'s, follows them live, and answers their approvals
   * through DBOS (`RunClient`). Needs `@dbos-inc/dbos-sdk`. @default none: the folder `dir`
   */
  database?: string;
  /**
   * Where the runs live, opened already (`openRunHost`, or `memoryRunHost` in tests): Studio
   * shows its runs and answers through it (`dir` and `database` are then not read), and
   * leaves it open when it closes. @default the host `openRunHost` opens from `dir` and `database`
   */
  runHost?: RunHost;
  /**
   * The workflows the page may start, try a tool of and chat with (`june dev` gives its
   * catalog): runs start in `workbench.root`, whose `.june/runs` should be `dir`. Only with a
   * runs folder, not `database`. @default none: Studio shows runs only
   */
  workbench?: WorkbenchCatalog;
  /**
   * The workflows of a project (`june dev`): Studio serves them (`GET /api/workflows`, see
   * `workbench-api.ts`) with their capability maps, and sends each change on its live
   * channel. @default none: Studio shows runs only
   */
  workflows?: WorkflowCatalog;
}

/** A running Studio server, from {@link startStudio}. */
export interface Studio {
  /** Where it is: `http://127.0.0.1:4000/`, with `?token=...` when reading needs its token. */
  readonly url: string;
  /**
   * Where to open it in a browser: `url` with the answer token (`?token=...`), which the page
   * keeps and sends with each approval answer. `june studio` prints this one.
   */
  readonly pageUrl: string;
  /** The access token every API request needs, when it needs one (beyond loopback, or `token` given). */
  readonly token?: string;
  /** The token every answering request needs (an approval answer): `token`, or one made at start. */
  readonly answerToken: string;
  /** Stops the server: ends live connections, stops watching; resolves when it is closed. */
  close(): Promise<void>;
}

/**
 * Starts June Studio: a local web UI over the trace files in `dir` (`<runId>.json`, as
 * `june run` writes them). It lists the runs, shows a run's trace tree (agents, steps,
 * model calls, tool calls, composite child runs) with an inspector, and follows new and
 * running runs live (the directory is watched with `fs.watch`, and polled every
 * `pollIntervalMs` as a fallback). A half-written or malformed file is listed as unreadable
 * with the reason; it never stops the server. `npx june studio [dir] [--port N] [--host H]`
 * calls this.
 *
 * The HTTP API, for scripts: `GET /api/runs` (`RunList`), `GET /api/runs/<runId>` (the
 * trace), `GET /api/events` (Server-Sent Events, `StudioEvent`).
 *
 * Requests must address one of the bound address's host names (or `allowHosts`), and
 * beyond loopback carry the access token, which `url` includes.
 *
 * @throws {SystemError} `studio-port-invalid` when `port` is not an integer from 0 to 65535;
 *   `studio-host-invalid` when an `allowHosts` entry is not a host name;
 *   `studio-ui-missing` when `assetsDir` has no `index.html`; `studio-listen-failed` when
 *   the port is taken or the address cannot be used.
 * @example
 * ```ts
 * const studio = await startStudio({ dir: '.june/runs', port: 0 });
 * console.log(`June Studio on ${studio.url}`);
 * process.on('SIGINT', () => void studio.close());
 * ```
 */
export async function startStudio(options: StudioOptions = {}): Promise<Studio> {
  const dirLabel = options.dir ?? '.june/runs';
  const port = options.port ?? 4000;
  const host = options.host ?? '127.0.0.1';
  const assetsDir = resolve(options.assetsDir ?? defaultAssetsDir());
  checkPortAndAssets(port, assetsDir);

  const access = studioAccess(host, options.allowHosts, options.token);
  const channel = new EventChannel();
  const runHost = await hostOf(options);
  const unsubscribeRuns = runHost.subscribe((event) => channel.send(event));
  const catalog = options.workflows;
  const unsubscribe = catalog?.subscribe((event) => channel.send(event));
  const chats = workbenchChatOf(options, dirLabel);
  const closeRuns = () => {
    unsubscribeRuns();
    if (options.runHost === undefined) void runHost.close().catch(() => {});
    void chats?.chat.close();
  };
  const forks = forksOf(options, runHost, chats?.places);
  const app = studioApp(access, [
    eventsRoute(channel),
    approvalsRoutes(runHost, access),
    runsRoutes(runHost, {
      workflows: catalog !== undefined,
      ...(forks ? { forks: { modelChoice: forks.places !== undefined } } : {}),
    }),
    ...(chats ? [workbenchRoutes(chats.places, chats.chat, access)] : []),
    ...(forks ? [forkRoutes(forks, access)] : []),
    ...(catalog ? [workflowsRoutes(catalog)] : []),
    uiRoutes(assetsDir),
  ]);
  const server = createServer(getRequestListener(app.fetch, { overrideGlobalObjects: false }));

  try {
    await listen(server, port, host);
  } catch (error) {
    unsubscribe?.();
    closeRuns();
    throw error;
  }
  server.on('error', () => {}); // after listening, errors belong to single connections

  const address = server.address() as AddressInfo;
  const shownHost =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const base = `http://${shownHost}:${address.port}/`;
  let closing: Promise<void> | undefined;
  return {
    url: `${base}${access.token !== undefined ? `?token=${access.token}` : ''}`,
    pageUrl: `${base}?token=${access.answerToken}`,
    ...(access.token !== undefined ? { token: access.token } : {}),
    answerToken: access.answerToken,
    close: () =>
      (closing ??= new Promise<void>((resolveClose) => {
        unsubscribe?.();
        closeRuns();
        channel.close();
        server.close(() => resolveClose());
        server.closeAllConnections();
      })),
  };
}

/**
 * The run host Studio shows: the one it was given (`runHost`), else the one `openRunHost`
 * opens from `dir` and `database`.
 * @throws {SystemError} what opening a database throws.
 */
async function hostOf(options: StudioOptions): Promise<RunHost> {
  if (options.runHost !== undefined) return options.runHost;
  return openRunHost({
    ...(options.dir !== undefined ? { dir: options.dir } : {}),
    ...(options.database !== undefined ? { database: options.database } : {}),
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
  });
}

/**
 * Where Studio forks runs, if it does: a database's workers and a given host run only
 * workflows they have; a runs folder's `june run` runs the file a journal names, so Studio
 * forks there only with `june dev`'s catalog, which the recorded workflow must be in.
 */
function forksOf(
  options: StudioOptions,
  host: RunHost,
  places: WorkbenchPlaces | undefined,
): StudioForks | undefined {
  if (places) return { host, places };
  return options.database !== undefined || options.runHost !== undefined ? { host } : undefined;
}

/** The workbench's places and chats, when `options.workbench` gives a catalog (and the runs are a folder). */
function workbenchChatOf(
  options: StudioOptions,
  dirLabel: string,
): { places: WorkbenchPlaces; chat: WorkbenchChat } | undefined {
  if (options.workbench === undefined || options.database !== undefined || options.runHost)
    return undefined;
  const places = {
    catalog: options.workbench,
    runsDir: resolve(dirLabel),
    slots: new ProcessSlots(),
  };
  return { places, chat: new WorkbenchChat(places) };
}

/**
 * Checks what can be checked before opening anything.
 * @throws {SystemError} `studio-port-invalid` for a port outside 0..65535; `studio-ui-missing`
 *   when `assetsDir` has no `index.html`.
 */
function checkPortAndAssets(port: number, assetsDir: string): void {
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SystemError(
      'studio-port-invalid',
      `june: Studio's port must be an integer from 0 to 65535 (0 picks a free one), got ${String(port)}.`,
    );
  }
  if (!existsSync(join(assetsDir, 'index.html'))) {
    throw new SystemError(
      'studio-ui-missing',
      `june: Studio's UI is not built: ${join(assetsDir, 'index.html')} does not exist. Run \`npm run build:studio\` in the june package (npm install runs it), or pass assetsDir.`,
    );
  }
}

/**
 * Starts listening, or says why it could not.
 * @throws {SystemError} `studio-listen-failed` when the port is taken or the address cannot be used.
 */
async function listen(server: Server, port: number, host: string): Promise<void> {
  try {
    await new Promise<void>((resolveListen, rejectListen) => {
      server.once('error', rejectListen);
      server.listen(port, host, () => {
        server.off('error', rejectListen);
        resolveListen();
      });
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    const hint =
      code === 'EADDRINUSE'
        ? 'another program uses that port; pass another port (--port N), or 0 for any free one'
        : 'check the host and port';
    throw new SystemError(
      'studio-listen-failed',
      `june: Studio could not listen on ${host}:${port} (${code}): ${hint}.`,
      { cause: error },
    );
  }
}
