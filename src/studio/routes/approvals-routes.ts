import { bodyLimit } from 'hono/body-limit';
import { answerTooLarge, MAX_ANSWER_BYTES, readAnswerBody } from '../answer-request.js';
import type { RunHost } from '../../host/run-host.js';
import { answering } from '../server/answering.js';
import { rawPath, sendJson } from '../server/send-json.js';
import { runIdIn } from '../server/run-id-path.js';
import type { StudioRouteModule } from '../server/studio-env.js';
import type { StudioAccess } from '../studio-access.js';

const APPROVALS = /^\/api\/runs\/([^/]+)\/approvals$/;

/**
 * A run's approvals:
 *
 * - `GET /api/runs/<runId>/approvals` → `RunApprovals`: the calls the run waits on;
 * - `POST /api/runs/<runId>/approvals` with `{ key, approved, reason?, answeredBy? }` (at most
 *   64 KiB) → answers one, once the request passed the `answering` middleware (same origin,
 *   the answer token): 202 `AnswerOutcome`.
 *
 * @throws {StudioRequestError} `studio-request-invalid` (400) for a run id that is not valid
 *   percent-encoding or a malformed answer; the desk's own errors (404, 409).
 */
export function approvalsRoutes(
  approvals: Pick<RunHost, 'decisions' | 'answer'>,
  access: StudioAccess,
): StudioRouteModule {
  const path = '/api/runs/:runId/approvals';
  return {
    answeringPaths: [APPROVALS],
    mount(app) {
      app.get(path, async (c) =>
        sendJson(c, 200, await approvals.decisions(runIdIn(APPROVALS, rawPath(c)))),
      );
      app.post(
        path,
        answering(access),
        bodyLimit({
          maxSize: MAX_ANSWER_BYTES,
          onError: () => {
            throw answerTooLarge();
          },
        }),
        async (c) => {
          const runId = runIdIn(APPROVALS, rawPath(c));
          const answer = await readAnswerBody(c.req.raw);
          return sendJson(c, 202, await approvals.answer(runId, answer));
        },
      );
    },
  };
}
