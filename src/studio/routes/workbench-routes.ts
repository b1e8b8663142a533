import { bodyLimit } from 'hono/body-limit';
import { answering } from '../server/answering.js';
import { rawPath, sendJson } from '../server/send-json.js';
import { idInPath } from '../server/run-id-path.js';
import type { StudioRouteModule } from '../server/studio-env.js';
import type { StudioAccess } from '../studio-access.js';
import { startWorkflowRun, type WorkbenchPlaces } from '../start-workflow-run.js';
import { tryWorkflowTool } from '../try-workflow-tool.js';
import { readJsonBody, WORKBENCH_BODY_BYTES, workbenchBodyTooLarge } from '../workbench-body.js';
import type { WorkbenchChat } from '../workbench-chat.js';

/** The workbench's POSTs: each starts something, so each is an answering request. */
const WORKBENCH_POST = /^\/api\/workflows\/([^/]+)\/(runs|tools|chat)$/;
const CHAT_STREAM = /^\/api\/workflows\/([^/]+)\/chat\/[^/]+\/stream$/;

/**
 * The workbench's requests that start something (see `workbench-api.ts`):
 *
 * - `POST /api/workflows/<id>/runs` with `StartRunRequest` → 202 `StartedRun` (`startWorkflowRun`);
 * - `POST /api/workflows/<id>/tools` with `TryToolRequest` → 200 `TriedTool` (`tryWorkflowTool`);
 *   a page that goes away before the call ends stops it;
 * - `POST /api/workflows/<id>/chat` (a `useChat` request) and
 *   `GET /api/workflows/<id>/chat/<chatId>/stream` (its reconnect): `june/web`'s chat handler
 *   (`WorkbenchChat`).
 *
 * Every POST passes the `answering` middleware (same origin, the answer token) before its
 * body is read, and a body is at most 256 KiB: a request from another site or without the
 * token starts nothing and writes nothing.
 *
 * @throws {StudioRequestError} `studio-request-invalid` (400) for an id that is not
 *   percent-encoding or a body that is too large or not JSON; what the parts throw.
 */
export function workbenchRoutes(
  places: WorkbenchPlaces,
  chat: WorkbenchChat,
  access: StudioAccess,
): StudioRouteModule {
  const limit = bodyLimit({
    maxSize: WORKBENCH_BODY_BYTES,
    onError: () => {
      throw workbenchBodyTooLarge();
    },
  });
  return {
    answeringPaths: [WORKBENCH_POST],
    mount(app) {
      app.post('/api/workflows/:id/runs', answering(access), limit, async (c) => {
        const body = await readJsonBody(c.req.raw, 'a start-run request');
        return sendJson(c, 202, await startWorkflowRun(places, idOf(rawPath(c)), body));
      });
      app.post('/api/workflows/:id/tools', answering(access), limit, async (c) => {
        const body = await readJsonBody(c.req.raw, 'a try-tool request');
        const gone = new AbortController();
        c.env.outgoing.on('close', () => gone.abort());
        const tried = await tryWorkflowTool(places, idOf(rawPath(c)), body, gone.signal);
        return sendJson(c, 200, tried);
      });
      app.post('/api/workflows/:id/chat', answering(access), (c) =>
        chat.answer(idOf(rawPath(c)), c.req.raw),
      );
      app.get('/api/workflows/:id/chat/:chatId/stream', (c) =>
        chat.answer(idOf(rawPath(c)), c.req.raw),
      );
    },
  };
}

/** The workflow id of a workbench path, decoded. */
function idOf(path: string): string {
  return idInPath([WORKBENCH_POST, CHAT_STREAM], path, 'workflow id');
}
