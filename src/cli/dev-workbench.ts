import { resolve } from 'node:path';
import type { WorkbenchCatalog } from '../studio/workbench-catalog.js';
import type { WorkflowCatalog } from '../studio/workflow-catalog.js';
import { loadWorkflow } from './load-workflow.js';

/**
 * What `june dev`'s Studio may start, try and chat with: the workflows `catalog` found, by
 * id. A workflow's file is its id under the catalog's root (only for an id the catalog
 * lists); the chat loads it afresh (tsx, `development`), so a saved file is what runs.
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
      const file = resolve(catalog.root, ...id.split('/'));
      return {
        entry,
        file,
        load: async () => (await loadWorkflow(file, catalog.root, { development: true })).component,
      };
    },
  };
}
