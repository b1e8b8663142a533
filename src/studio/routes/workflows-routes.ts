import type { StudioRouteModule } from '../server/studio-env.js';
import { scriptFilesNear } from '../script-files-near.js';
import { rawPath, safeDecode, sendJson } from '../server/send-json.js';
import { StudioRequestError } from '../../host/studio-request-error.js';
import type { WorkflowList } from '../../workflows/workbench-api.js';
import type { WorkflowCatalog } from '../../workflows/workflow-catalog.js';

const MAX_PROPS_CHARS = 64 * 1024;

/**
 * The workbench's workflows (`june dev`), read-only:
 *
 * - `GET /api/workflows` → `WorkflowList`;
 * - `GET /api/workflows/<id>?props=<json>` → `WorkflowEntry`, its capability map resolved for
 *   those props (a JSON object, at most 65536 characters; `{}` when absent), with the model
 *   script files next to it (`scripts`, `scriptFilesNear`); 404 `{ error }`
 *   for an id the catalog does not have, 400 for props that are not a JSON object or an id
 *   that is not valid percent-encoding.
 *
 * The id only looks a workflow up among those the catalog found: no path from a request
 * is ever loaded.
 */
export function workflowsRoutes(catalog: WorkflowCatalog): StudioRouteModule {
  return {
    mount(app) {
      app.get('/api/workflows', (c) => {
        const body: WorkflowList = { root: catalog.root, workflows: catalog.list() };
        return sendJson(c, 200, body);
      });
      app.get('/api/workflows/:id', async (c) => {
        const encoded = rawPath(c).slice('/api/workflows/'.length);
        const id = safeDecode(encoded);
        if (id === undefined)
          throw invalid(
            `the workflow id ${JSON.stringify(encoded.slice(0, 80))} is not valid percent-encoding; encode it with encodeURIComponent`,
          );
        const entry = await catalog.resolve(id, propsOf(c.req.query('props')));
        if (entry)
          return sendJson(c, 200, {
            ...entry,
            scripts: await scriptFilesNear(catalog.root, entry.id),
          });
        return sendJson(c, 404, {
          error: `june: no workflow "${id.slice(0, 200)}" in ${catalog.root}; the list at /api/workflows has the workflows there.`,
        });
      });
    },
  };
}

/** The `props` query parameter as an object: `{}` when absent. */
function propsOf(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text === '') return {};
  let props: unknown;
  try {
    if (text.length > MAX_PROPS_CHARS) throw new Error('too long');
    props = JSON.parse(text);
  } catch {
    throw invalid('?props= must be a JSON object of at most 65536 characters');
  }
  if (typeof props !== 'object' || props === null || Array.isArray(props))
    throw invalid('?props= must be a JSON object, such as {"writable":true}');
  return props as Record<string, unknown>;
}

function invalid(problem: string): StudioRequestError {
  return new StudioRequestError('studio-request-invalid', `june: ${problem}.`, 400);
}
