import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { SystemError } from '../errors/index.js';
import { EventChannel } from './event-channel.js';
import { handleStudioRequest } from './handle-studio-request.js';
import { studioAccess } from './studio-access.js';
import { RunDirectory } from './run-directory.js';
import { defaultAssetsDir } from './studio-assets.js';

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
  /** How often to look at `dir` even when `fs.watch` reports nothing, in ms. @default 1000 */
  pollIntervalMs?: number;
}

/** A running Studio server, from {@link startStudio}. */
export interface Studio {
  /** Where to open it: `http://127.0.0.1:4000/`, with `?token=...` when it needs its token. */
  readonly url: string;
  /** The access token API requests need, when it needs one. */
  readonly token?: string;
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
  const runs = new RunDirectory({
    dir: resolve(dirLabel),
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
    onChange: (event) => channel.send(event),
  });
  await runs.start();
  const routes = { runs, channel, assetsDir, dirLabel, access };
  const server = createServer(
    (request, response) => void handleStudioRequest(routes, request, response),
  );

  try {
    await listen(server, port, host);
  } catch (error) {
    runs.close();
    throw error;
  }
  server.on('error', () => {}); // after listening, errors belong to single connections

  const address = server.address() as AddressInfo;
  const shownHost =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${address.port}/${access.token !== undefined ? `?token=${access.token}` : ''}`,
    ...(access.token !== undefined ? { token: access.token } : {}),
    close: () =>
      (closing ??= new Promise<void>((resolveClose) => {
        runs.close();
        channel.close();
        server.close(() => resolveClose());
        server.closeAllConnections();
      })),
  };
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
