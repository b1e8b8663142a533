import { bodyLimit } from 'hono/body-limit';
import { answering } from '../server/answering.js';
import { rawPath, sendJson } from '../server/send-json.js';
import { runIdIn } from '../server/run-id-path.js';
import type { StudioRouteModule } from '../server/studio-env.js';
import type { StudioAccess } from '../studio-access.js';
import { forkWorkflowRun, type StudioForks } from '../fork-workflow-run.js';
import { readJsonBody, WORKBENCH_BODY_BYTES, workbenchBodyTooLarge } from '../workbench-body.js';

const FORK_POST = /^\/api\/runs\/([^/]+)\/fork$/;

/**
 * `POST /api/runs/<runId>/fork` with `ForkRunRequest` → 202 `ForkedRun`, or 200
 * `ForkPreview` for a preview (`forkWorkflowRun`, through the run host). It starts
 * something, so it passes the `answering` middleware (same origin, the answer token) before
 * its body (at most 256 KiB) is read. Studio mounts it where its host may fork: a database,
 * a host it was given, or `june dev`'s runs folder with its catalog (never plain
 * `june studio` over a folder, whose journals name workflow files Studio has not found).
 *
 * @throws {StudioRequestError} `studio-request-invalid` (400) for an id that is not
 *   percent-encoding or a body that is too large or not JSON; what `forkWorkflowRun` throws.
 */
export function forkRoutes(forks: StudioForks, access: StudioAccess): StudioRouteModule {
  const limit = bodyLimit({
    maxSize: WORKBENCH_BODY_BYTES,
    onError: () => {
      throw workbenchBodyTooLarge();
    },
  });
  return {
    answeringPaths: [FORK_POST],
    mount(app) {
      app.post('/api/runs/:runId/fork', answering(access), limit, async (c) => {
        const body = await readJsonBody(c.req.raw, 'a fork request');
        const forked = await forkWorkflowRun(forks, runIdIn(FORK_POST, rawPath(c)), body);
        return sendJson(c, forked.status, forked.body);
      });
    },
  };
}
