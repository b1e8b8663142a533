import { Worker } from 'node:worker_threads';
import { SystemError } from '../errors/index.js';
import type { WorkflowEntry } from '../workflows/workbench-api.js';

/** What the inspector's thread is asked: load a workflow file (again), or its map for other props. */
export interface InspectorRequest {
  n: number;
  /** `load`: a fresh load of the file; `resolve`: the file as this thread loaded it last. */
  kind: 'load' | 'resolve';
  /** The workflow file, absolute. */
  file: string;
  /** Its id in the catalog. */
  id: string;
  /** The project root, absolute. */
  root: string;
  props: Record<string, unknown>;
}

/** What a load gave: the workflow's entry, and the project's files it imported (absolute). */
export type InspectOutcome =
  | { kind: 'loaded'; entry: WorkflowEntry; imports: string[] }
  /** It did not load: its `broken` entry, the `JuneError`'s code when it was one. */
  | { kind: 'failed'; entry: WorkflowEntry; code?: string; imports: string[] };

/** The thread's answer to the request numbered `n`. */
export interface InspectorReply {
  n: number;
  outcome: InspectOutcome;
}

interface Pending {
  request: InspectorRequest;
  resolve: (outcome: InspectOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Loads `june dev`'s workflows in a worker thread of their own, so that the modules each load
 * imports (tsx compiles a fresh copy on every save, and Node never unloads a module) go away
 * with the thread: {@link renew} ends the thread and makes the next one current, which loads
 * the files as they are now. That one was started while the last was idle (a spare), so it has
 * June and tsx loaded already. Memory then stays that of one thread's loads and the spare,
 * however many saves there are.
 * A thread that dies (a workflow that calls `process.exit()`, runs out of heap) fails the
 * requests it had, and the next request gets a new thread.
 *
 * @example
 * ```ts
 * const inspector = new WorkflowInspector();
 * const outcome = await inspector.load({ kind: 'load', file, id: 'release.tsx', root, props: {} });
 * inspector.renew(); // after a save: the next load sees the new code
 * ```
 */
export class WorkflowInspector {
  #worker: Worker | undefined;
  /** The next thread, started while this one is idle, so a save does not wait for June and tsx to load. */
  #spare: Worker | undefined;
  readonly #pending = new Map<number, Pending>();
  #next = 0;

  /**
   * Loads (`kind: 'load'`) or resolves again for other props (`kind: 'resolve'`) one workflow
   * in the current thread.
   * @throws {SystemError} `workflow-load-failed` when the thread ended before it answered.
   */
  load(request: Omit<InspectorRequest, 'n'>): Promise<InspectOutcome> {
    const n = ++this.#next;
    return new Promise((resolve, reject) => {
      const pending = { request: { ...request, n }, resolve, reject };
      this.#pending.set(n, pending);
      this.#send(pending);
    });
  }

  /**
   * Ends the current thread, and with it every module its loads imported, and starts the next
   * one at once (so it has loaded June and tsx by the next save). Requests still waiting go to
   * the new thread, which answers them with the files as they are now.
   */
  renew(): void {
    const old = this.#worker;
    this.#worker = undefined;
    if (old) void old.terminate();
    this.#start();
    for (const pending of this.#pending.values()) this.#send(pending);
  }

  /** Ends the threads; requests still waiting fail. */
  async close(): Promise<void> {
    const threads = [this.#worker, this.#spare];
    this.#worker = this.#spare = undefined;
    await Promise.all(threads.map((thread) => thread?.terminate()));
  }

  #send(pending: Pending): void {
    const worker = this.#worker ?? this.#start();
    worker.ref();
    worker.postMessage(pending.request);
  }

  /** Makes the spare thread (or a new one) the current one. */
  #start(): Worker {
    const worker = this.#spare ?? inspectorWorker();
    this.#spare = undefined;
    this.#worker = worker;
    worker.unref();
    worker.on('message', (reply: InspectorReply) => {
      const pending = this.#pending.get(reply.n);
      if (!pending) return;
      this.#pending.delete(reply.n);
      if (this.#pending.size === 0) {
        worker.unref();
        if (this.#worker === worker) this.#warm();
      }
      pending.resolve(reply.outcome);
    });
    worker.on('error', (error) => this.#ended(worker, error));
    worker.on('exit', (code) => this.#ended(worker, code));
    return worker;
  }

  /** Starts the spare thread, unless there is one. */
  #warm(): void {
    if (this.#spare) return;
    const spare = inspectorWorker();
    spare.unref();
    spare.once('exit', () => {
      if (this.#spare === spare) this.#spare = undefined;
    });
    this.#spare = spare;
  }

  /** The thread ended: when it was the current one, what it had fails, and the next request starts another. */
  #ended(worker: Worker, why: unknown): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    const what = typeof why === 'number' ? `ended (exit code ${why})` : `failed: ${String(why)}`;
    for (const [n, pending] of this.#pending) {
      this.#pending.delete(n);
      pending.reject(
        new SystemError(
          'workflow-load-failed',
          `june: the thread loading ${pending.request.id} ${what} before the workflow loaded; save the file again to retry, and check that it does not call process.exit().`,
        ),
      );
    }
  }
}

/**
 * The worker thread: the compiled module beside this one, or, when June runs from its
 * TypeScript source (its own tests), that source through tsx.
 */
function inspectorWorker(): Worker {
  const source = import.meta.url.endsWith('.ts');
  const url = new URL(`./workflow-inspector-worker.${source ? 'ts' : 'js'}`, import.meta.url);
  return new Worker(url, source ? { execArgv: ['--import', import.meta.resolve('tsx')] } : {});
}
