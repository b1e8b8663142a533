import type { RunHost } from '../../host/run-host.js';
import { rawPath, safeDecode, sendJson, sendText } from '../server/send-json.js';
import type { StudioRouteModule } from '../server/studio-env.js';
import type { RunList } from '../../host/run-list.js';

/** Where {@link runsRoutes} reads runs from: the run host's list, traces and label (shown in the UI). */
export type RunsSource = Pick<RunHost, 'list' | 'readTrace' | 'label'>;

/** What else the run list tells the page about this Studio. */
export interface RunsRoutesOptions {
  /** Whether Studio serves a project's workflows (`GET /api/workflows`, `june dev`). @default false */
  workflows?: boolean;
  /** Whether Studio forks runs (`POST /api/runs/<runId>/fork`), and takes a model choice for them (`RunList.forks`). @default none */
  forks?: { modelChoice: boolean };
}

/**
 * The runs:
 *
 * - `GET /api/runs` → `RunList` (JSON): every run, newest first, unreadable files included,
 *   whether the workflows are served (`options.workflows`) and whether runs fork (`options.forks`);
 * - `GET /api/runs/<runId>` → the run's trace file as it is (JSON); 404 `{ error }` when there
 *   is no such file, 422 `{ error, unreadable }` when it is not a readable trace, 400
 *   `{ error }` when the id is not valid percent-encoding.
 */
export function runsRoutes(source: RunsSource, options: RunsRoutesOptions = {}): StudioRouteModule {
  return {
    mount(app) {
      app.get('/api/runs', async (c) => {
        const body: RunList = {
          dir: source.label,
          runs: await source.list(),
          workflows: options.workflows === true,
          ...(options.forks ? { forks: options.forks } : {}),
        };
        return sendJson(c, 200, body);
      });
      app.get('/api/runs/*', async (c) => {
        const path = rawPath(c);
        const runId = safeDecode(path.slice('/api/runs/'.length));
        if (runId === undefined) {
          return sendJson(c, 400, {
            error: `june: the run id in ${path} is not valid percent-encoding (each % must start a %XX escape); encode the id with encodeURIComponent.`,
          });
        }
        const found = await source.readTrace(runId);
        if ('text' in found) return sendText(c, 200, found.text, 'application/json; charset=utf-8');
        if ('unreadable' in found)
          return sendJson(c, 422, {
            error: `june: the trace of run "${runId}" is unreadable: ${found.unreadable}.`,
            unreadable: found.unreadable,
          });
        return sendJson(c, 404, {
          error: `june: no run "${runId}" in ${source.label}; the list at /api/runs has the runs there.`,
        });
      });
    },
  };
}
