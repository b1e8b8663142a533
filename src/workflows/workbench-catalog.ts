import type { Component } from '../elements/element.js';
import type { WorkflowEntry } from './workbench-api.js';

/** One workflow of a {@link WorkbenchCatalog}: what the page sees and where its file is. */
export interface WorkbenchWorkflow {
  /** As `GET /api/workflows/<id>` serves it: its status, props schema, map. */
  entry: WorkflowEntry;
  /** The workflow file, absolute, inside the catalog's `root`. */
  file: string;
  /**
   * The file's default export, loaded (with the copy of June the file imports): what the chat
   * route runs in Studio's process.
   * @throws {JuneError} the file's load errors
   */
  load(): Promise<Component>;
}

/**
 * The workflows Studio's workbench may start, try and chat with: the ones its catalog found
 * in the project (`june dev`). A request names a workflow only by its id
 * (`WorkflowEntry.id`); a path taken from a request is never loaded or run.
 */
export interface WorkbenchCatalog {
  /** The project folder, absolute: ids are relative to it, and runs started here run in it. */
  readonly root: string;
  /** The workflow the catalog found under `id`, or `undefined` for any other id. */
  workflow(id: string): Promise<WorkbenchWorkflow | undefined>;
}
