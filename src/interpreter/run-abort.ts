/** A tool execution in flight: the tool's name and the call's id. */
export interface TrackedCall {
  tool: string;
  toolCallId: string | undefined;
}

/**
 * A run's abort and what it waits for after one: the one controller that aborts the run and
 * its child runs, the tool executions still in flight (with the calls among them, to name
 * those an abort could not stop) and the async user components rendering now. Built once
 * per run; the static check and `inspect()` have none.
 *
 * @example
 * ```ts
 * const abort = new RunAbort();
 * const unfollow = abort.follow(options.signal);
 * abort.track(execute(input), frame.inflight, { tool: 'deploy', toolCallId: 'c1' });
 * abort.abort(new Error('stopped'));
 * ```
 */
export class RunAbort {
  readonly #controller = new AbortController();
  /** Aborts with the run: model calls, tool executions, child runs, pending approvals. */
  readonly signal: AbortSignal = this.#controller.signal;
  /** Every tool execution of the run (child runs included) still in flight. */
  readonly inflight = new Set<Promise<unknown>>();
  /** The tool calls among {@link inflight}, by their promise. */
  readonly calls = new Map<Promise<unknown>, TrackedCall>();
  /** Async user components rendering now, as `<Name> at file:line`. */
  readonly rendering = new Set<{ component: string }>();

  /** Aborts the run with `reason` (as `AbortController.abort` takes it). */
  abort(reason?: unknown): void {
    this.#controller.abort(reason);
  }

  /** Aborts the run when `signal` aborts (at once when it already has); returns what stops following it. */
  follow(signal: AbortSignal | undefined): () => void {
    if (!signal) return () => {};
    const onAbort = () => this.abort(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  }

  /**
   * Keeps a tool execution's promise until it settles, so an abort can wait for cleanup:
   * here, and in `frameInflight` (the executions of the run, outermost or child, whose agent
   * runs the tool).
   */
  track<T>(
    promise: Promise<T>,
    frameInflight?: Set<Promise<unknown>>,
    call?: TrackedCall,
  ): Promise<T> {
    this.inflight.add(promise);
    frameInflight?.add(promise);
    if (call) this.calls.set(promise, call);
    const forget = () => {
      this.inflight.delete(promise);
      frameInflight?.delete(promise);
      this.calls.delete(promise);
    };
    promise.then(forget, forget);
    return promise;
  }
}
