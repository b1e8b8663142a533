import type { WorkflowEntry, WorkflowEvent, WorkflowRemovedEvent } from './workbench-api.js';

/**
 * The workflows Studio's workbench shows (`june dev`): what the workflow routes read and
 * the live channel follows. Its implementation loads user code (the CLI's `DevCatalog`);
 * Studio never does, and asks only by id for what the catalog found itself, never by a path
 * from a request.
 */
export interface WorkflowCatalog {
  /** The project root the ids are relative to, as shown to the user. */
  readonly root: string;
  /** Every workflow, in path order, each with its map for its default props (`{}`). */
  list(): WorkflowEntry[];
  /**
   * The workflow `id` with its map resolved for `props` (the file is not loaded again),
   * or undefined when the catalog has no such workflow.
   */
  resolve(id: string, props: Record<string, unknown>): Promise<WorkflowEntry | undefined>;
  /** Calls `listener` on each change (a file saved, added or removed); returns how to stop. */
  subscribe(listener: (event: WorkflowEvent | WorkflowRemovedEvent) => void): () => void;
}
