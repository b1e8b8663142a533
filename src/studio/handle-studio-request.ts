import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApprovalDesk } from './approval-desk.js';
import { checkAnswering, readAnswerBody } from './answer-request.js';
import type { EventChannel } from './event-channel.js';
import type { RunDirectory } from './run-directory.js';
import { serveStaticFile } from './static-files.js';
import type { RunList } from './studio-api.js';
import { carriesToken, hostName, tokenCookie, type StudioAccess } from './studio-access.js';
import { StudioRequestError } from './studio-request-error.js';
import {
  answerWorkbench,
  isWorkbenchPath,
  WORKBENCH_POST,
  type WorkbenchRoutes,
} from './workbench-routes.js';

/** What {@link handleStudioRequest} serves from. */
export interface StudioRoutes {
  /** The runs: a folder of trace files (`RunDirectory`) or a database (`DatabaseRuns`). */
  runs: Pick<RunDirectory, 'list' | 'readTrace'>;
  channel: EventChannel;
  /** The built UI. */
  assetsDir: string;
  /** The runs directory as the user gave it (or the database, without its password), shown in the UI. */
  dirLabel: string;
  /** Host names a request may address (`Host` header), and the access token API requests need, if any. */
  access: StudioAccess;
  /** Where approvals are read and answered. */
  approvals: ApprovalDesk;
  /** The workbench (`june dev`): starting runs, trying tools, chat. @default none: runs only */
  workbench?: WorkbenchRoutes;
}

const APPROVALS = /^\/api\/runs\/([^/]+)\/approvals$/;

/**
 * Answers one Studio request. Routes:
 *
 * - `GET /api/runs` → `RunList` (JSON): every run, newest first, unreadable files included;
 * - `GET /api/runs/<runId>` → the run's trace file (JSON), 404 `{ error }` when there is no
 *   such file, 422 `{ error, unreadable }` when it is not a readable trace, 400 `{ error }`
 *   when the id is not valid percent-encoding;
 * - `GET /api/events` → the live channel (Server-Sent Events, see `StudioEvent`);
 * - `GET /api/runs/<runId>/approvals` → `RunApprovals`: the calls the run waits on;
 * - `POST /api/runs/<runId>/approvals` with `{ key, approved, reason? }` → answers one, once
 *   the request passed `checkAnswering` (same origin, the answer token): 202 `AnswerOutcome`;
 * - `GET /<file>` → the built UI (`/` is `index.html`).
 *
 * Other methods get 405. A request whose `Host` is not one of `access.allowedHosts` gets 403
 * (a page on another site cannot read traces through DNS rebinding); with `access.token`,
 * an API request without it gets 401 (a page opened with `?token=` gets it as a cookie).
 * It never rejects: an unexpected failure becomes a 500 with the message.
 *
 * @example
 * ```ts
 * createServer((request, response) => void handleStudioRequest(routes, request, response));
 * ```
 */
export async function handleStudioRequest(
  routes: StudioRoutes,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  try {
    const url = admit(routes.access, request, response);
    if (url) await route(routes, request, response, url);
  } catch (error) {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    if (error instanceof StudioRequestError)
      return sendJson(response, error.status, { error: error.message, code: error.code });
    sendJson(response, 500, {
      error: `june: Studio failed to answer ${request.method} ${request.url}: ${(error as Error).message}`,
    });
  }
}

/**
 * Checks the host, the method and the token; answers 403, 405 or 401 when one fails.
 * @returns the request's URL when it may go on, else undefined (already answered)
 */
function admit(
  access: StudioRoutes['access'],
  request: IncomingMessage,
  response: ServerResponse,
): URL | undefined {
  const hostname = hostName(request.headers.host ?? '');
  const { allowedHosts, token } = access;
  if (!allowedHosts.has(hostname)) {
    sendJson(response, 403, {
      error: `june: Studio answers requests for ${[...allowedHosts].join(', ')}, not for the host ${JSON.stringify(hostname.slice(0, 80))}; open it by the URL it printed, or start it with --allow-host for that name.`,
    });
    return undefined;
  }
  const url = new URL(request.url ?? '/', 'http://studio.invalid');
  const answering = APPROVALS.test(url.pathname) || WORKBENCH_POST.test(url.pathname);
  if (
    request.method !== 'GET' &&
    request.method !== 'HEAD' &&
    !(answering && request.method === 'POST')
  ) {
    response.setHeader('allow', answering ? 'GET, HEAD, POST' : 'GET, HEAD');
    sendJson(response, 405, {
      error: `june: Studio only reads, but for approval answers (POST /api/runs/<runId>/approvals) and the workbench's requests (POST /api/workflows/<id>/runs, /tools, /chat); ${request.method} is not allowed here.`,
    });
    return undefined;
  }
  if (
    token !== undefined &&
    url.pathname.startsWith('/api/') &&
    !carriesToken(request, url, token)
  ) {
    sendJson(response, 401, {
      error:
        'june: Studio needs its access token on every API request: open the URL it printed at start (it ends in ?token=...), or send "Authorization: Bearer <token>".',
    });
    return undefined;
  }
  const pageToken = token ?? access.answerToken;
  if (url.searchParams.has('token') && carriesToken(request, url, pageToken)) {
    // the page was opened by its printed URL: its own API requests carry the token as a cookie
    response.setHeader(
      'set-cookie',
      `${tokenCookie(request.socket.localPort)}=${pageToken}; HttpOnly; SameSite=Strict; Path=/`,
    );
  }
  return url;
}

/** Answers an admitted request: the API (runs, one trace, events) or a file of the UI. */
async function route(
  routes: StudioRoutes,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  const path = url.pathname;
  if (path === '/api/runs') {
    const body: RunList = { dir: routes.dirLabel, runs: await routes.runs.list() };
    return sendJson(response, 200, body);
  }
  if (path === '/api/events') return routes.channel.connect(request, response);
  if (isWorkbenchPath(path))
    return answerWorkbench(routes.workbench, routes.access, request, response, url);
  const approvals = APPROVALS.exec(path);
  if (approvals) return answerRoute(routes, request, response, approvals[1]!);
  if (path.startsWith('/api/runs/')) return sendTrace(routes, response, path);
  if (path.startsWith('/api/'))
    return sendJson(response, 404, {
      error: `june: no Studio API at ${path}; the API is /api/runs, /api/runs/<runId> and /api/events.`,
    });
  if (await serveStaticFile(response, routes.assetsDir, path, request.method === 'HEAD')) return;
  sendText(response, 404, `june: Studio has no page at ${path}.\n`, 'text/plain; charset=utf-8');
}

/** `/api/runs/<runId>/approvals`: what the run waits for (GET), or an answer to one (POST). */
async function answerRoute(
  routes: StudioRoutes,
  request: IncomingMessage,
  response: ServerResponse,
  encoded: string,
): Promise<void> {
  const runId = safeDecode(encoded);
  if (runId === undefined)
    throw new StudioRequestError(
      'studio-request-invalid',
      `june: the run id ${JSON.stringify(encoded.slice(0, 80))} is not valid percent-encoding; encode it with encodeURIComponent.`,
      400,
    );
  if (request.method !== 'POST')
    return sendJson(response, 200, await routes.approvals.approvals(runId));
  checkAnswering(routes.access, request, new URL(request.url ?? '/', 'http://studio.invalid'));
  const answer = await readAnswerBody(request);
  return sendJson(response, 202, await routes.approvals.answer(runId, answer));
}

/** `/api/runs/<runId>`: the trace file as it is, or 400, 422 or 404 saying why not. */
async function sendTrace(routes: StudioRoutes, response: ServerResponse, path: string) {
  const runId = safeDecode(path.slice('/api/runs/'.length));
  if (runId === undefined) {
    return sendJson(response, 400, {
      error: `june: the run id in ${path} is not valid percent-encoding (each % must start a %XX escape); encode the id with encodeURIComponent.`,
    });
  }
  const found = await routes.runs.readTrace(runId);
  if ('text' in found)
    return sendText(response, 200, found.text, 'application/json; charset=utf-8');
  if ('unreadable' in found)
    return sendJson(response, 422, {
      error: `june: the trace of run "${runId}" is unreadable: ${found.unreadable}.`,
      unreadable: found.unreadable,
    });
  return sendJson(response, 404, {
    error: `june: no run "${runId}" in ${routes.dirLabel}; the list at /api/runs has the runs there.`,
  });
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  sendText(response, status, JSON.stringify(body), 'application/json; charset=utf-8');
}

function sendText(response: ServerResponse, status: number, text: string, type: string): void {
  response.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  response.end(text);
}
