import type {
  WorkflowEntry,
  WorkflowEvent,
  WorkflowRemovedEvent,
} from '../workflows/workbench-api.js';
import type { WorkflowCatalog } from '../workflows/workflow-catalog.js';
import { idOf, mayBeWorkflow, realInside, type WorkflowFile } from './find-workflows.js';
import { brokenEntry } from './workflow-entry.js';
import { WorkflowInspector, type InspectOutcome } from './workflow-inspector.js';

type Listener = (event: WorkflowEvent | WorkflowRemovedEvent) => void;

/** Errors that say a file is not a workflow at all (rather than a workflow that is broken). */
const NOT_A_WORKFLOW = new Set(['workflow-default-missing', 'workflow-default-invalid']);

interface Known {
  workflow: WorkflowFile;
  entry: WorkflowEntry;
  /** Whether its file loaded (then maps for other props can be resolved). */
  loaded: boolean;
  /** The project's own files its load imported, itself included (absolute paths). */
  imports: Set<string>;
}

/**
 * `june dev`'s workflows: each candidate file loaded (tsx, see `loadWorkflow`'s `development`)
 * in a worker thread ({@link WorkflowInspector}) that is replaced on every change, so the
 * modules of earlier loads go away with their thread and memory does not grow with saves;
 * its scopes resolved with `inspect()`, and the files it imports remembered, so a change to
 * any of them loads it again ({@link changed}). A file
 * found by searching a folder whose default export is not a component is not a workflow
 * and is left out (a shown workflow whose default export goes away is broken, not gone); a
 * workflow that no longer loads or resolves is `broken` with its error,
 * and ready again after the next good save. Only files found by `findWorkflows` under the
 * project root, or found later under the folders searched, are ever loaded.
 *
 * @example
 * ```ts
 * const catalog = new DevCatalog(root, await findWorkflows(root));
 * await catalog.loadAll();
 * await startStudio({ workflows: catalog });
 * ```
 */
export class DevCatalog implements WorkflowCatalog {
  readonly #known = new Map<string, Known>();
  readonly #listeners = new Set<Listener>();
  readonly #inspector = new WorkflowInspector();
  #queue: Promise<void> = Promise.resolve();

  /**
   * @param root - the project root (absolute): ids are paths from it.
   * @param files - the candidates `findWorkflows` found.
   * @param folders - the folders searched (absolute), where new files are looked at.
   */
  constructor(
    readonly root: string,
    private readonly files: readonly WorkflowFile[],
    private readonly folders: readonly string[],
  ) {}

  /** Loads every candidate once (in order); resolves when all are in. */
  loadAll(): Promise<void> {
    return this.#enqueue(async () => {
      for (const workflow of this.files) await this.#load(workflow);
    });
  }

  list(): WorkflowEntry[] {
    return [...this.#known.values()]
      .map((known) => known.entry)
      .sort((a, b) => a.id.localeCompare(b.id));
  }

  async resolve(id: string, props: Record<string, unknown>): Promise<WorkflowEntry | undefined> {
    const known = this.#known.get(id);
    if (!known) return undefined;
    if (!known.loaded || Object.keys(props).length === 0) return known.entry;
    const { file } = known.workflow;
    try {
      const outcome = await this.#inspector.load({
        kind: 'resolve',
        file,
        id,
        root: this.root,
        props,
      });
      return outcome.kind === 'loaded' ? outcome.entry : known.entry;
    } catch {
      return known.entry; // its thread ended: the map for no props stands
    }
  }

  /** Ends the thread workflows load in (`june dev` stopping). */
  close(): Promise<void> {
    return this.#inspector.close();
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every file the catalog's workflows import (absolute): what a watcher should watch. */
  watched(): string[] {
    return [...new Set([...this.#known.values()].flatMap((known) => [...known.imports]))];
  }

  /**
   * A file changed (`change`), appeared (`add`) or went away (`unlink`): loads again every
   * workflow that imports it, takes up a new candidate in a searched folder, or drops a
   * removed workflow; each change goes to the subscribers. Changes are handled one at a time.
   */
  changed(file: string, kind: 'add' | 'change' | 'unlink'): Promise<void> {
    return this.#enqueue(async () => {
      this.#inspector.renew(); // the loads below see the files as saved, in a thread of their own
      const id = idOf(this.root, file);
      const own = id !== undefined ? this.#known.get(id) : undefined;
      if (own && own.workflow.file === file && kind === 'unlink') {
        if (own.workflow.named) await this.#load(own.workflow);
        else this.#remove(own.workflow.id);
        return;
      }
      const affected = [...this.#known.values()].filter((known) => known.imports.has(file));
      for (const known of affected) await this.#load(known.workflow);
      if (affected.length === 0 && id !== undefined && kind !== 'unlink' && this.#searched(file))
        if ((await realInside(this.root, file)) && (await mayBeWorkflow(file)))
          await this.#load({ id, file, named: false });
    });
  }

  async #load(workflow: WorkflowFile): Promise<void> {
    const before = this.#known.get(workflow.id);
    const { id, file } = workflow;
    let outcome: InspectOutcome;
    try {
      outcome = await this.#inspector.load({ kind: 'load', file, id, root: this.root, props: {} });
    } catch (error) {
      outcome = { kind: 'failed', entry: brokenEntry(id, error, this.root), imports: [file] };
    }
    const imports = new Set(outcome.imports);
    let known: Known;
    if (outcome.kind === 'loaded')
      known = { workflow, loaded: true, imports, entry: outcome.entry };
    else {
      // a file found by searching that is not a workflow is left out, unless it was one
      // before this save (then it is a workflow being edited: broken until it is one again)
      const notOne = outcome.code !== undefined && NOT_A_WORKFLOW.has(outcome.code);
      if (notOne && !workflow.named && !before) return;
      for (const path of before?.imports ?? []) imports.add(path); // keep watching what it imported
      const entry = before ? { ...outcome.entry, name: before.entry.name } : outcome.entry;
      known = { workflow, loaded: false, imports, entry };
    }
    this.#known.set(id, known);
    this.#emit({ type: 'workflow', workflow: known.entry });
  }

  #remove(id: string): void {
    if (this.#known.delete(id)) this.#emit({ type: 'workflow-removed', id });
  }

  #searched(file: string): boolean {
    return this.folders.some((folder) => idOf(folder, file) !== undefined);
  }

  #emit(event: WorkflowEvent | WorkflowRemovedEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  #enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.#queue.then(work);
    this.#queue = next.catch(() => {});
    return next;
  }
}
