import { resolveInside } from '../host/resolve-inside.js';
import type { WorkbenchCatalog } from '../workflows/workbench-catalog.js';
import type { WorkflowCatalog } from '../workflows/workflow-catalog.js';
import { loadWorkflow } from './load-workflow.js';

/**
 * What `june dev`'s Studio may start, try and chat with: the workflows `catalog` found, by
 * id. A workflow's file is its id under the catalog's root (only for an id the catalog
 * lists), found again at each request with every link resolved: a file replaced since by a
 * link out of the project is not started (the id answers as unknown). The chat loads it
 * afresh (tsx, `development`), so a saved file is what runs.
 *
 * @example
 * ```ts
 * await startStudio({ workflows: catalog, workbench: devWorkbench(catalog) });
 * ```
 */
export function devWorkbench(catalog: WorkflowCatalog): WorkbenchCatalog {
  return {
    root: catalog.root,
    async workflow(id) {
      const entry = catalog.list().find((found) => found.id === id);
      if (!entry) return undefined;
      const found = await resolveInside(catalog.root, id);
      if (!found || !('path' in found)) return undefined;
      const file = found.path;
      return {
        entry,
        file,
        load: async () => (await loadWorkflow(file, catalog.root, { development: true })).component,
      };
    },
  };
}
