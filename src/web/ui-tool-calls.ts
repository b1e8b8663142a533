import type { RunLogEventOf, RunLogEventType } from '../events/run-event.js';

type Event<T extends RunLogEventType> = RunLogEventOf<T>;

/** One tool call as the UI stream knows it. */
export interface UIToolCall {
  /** Its id in the UI message: `<step path>/<toolCallId>`, `#n` added when the pair repeats. */
  id: string;
  runId: string;
  step: string;
  toolCallId: string;
  /** The child run a composite call started, once it started. */
  child?: string;
  /** Its trace node (`nodeId` of its events in the run's log), when the events had one. */
  nodeId?: string;
}

/**
 * Gives every tool call of a run (child runs included) its id in the UI message and finds it
 * again from later events. The id is built from the step path and the provider's
 * `toolCallId`, which a resumed run gives again (recorded model answers are replayed), so a
 * continuation's chunks update the parts the browser already has. Child run ids are not
 * part of it: they are numbered in the order child runs start in one process.
 */
export class UIToolCalls {
  readonly #counts = new Map<string, number>();
  /** Open calls by `<runId>|<toolCallId>`, oldest first. */
  readonly #open = new Map<string, UIToolCall[]>();
  /** The call that started each child run. */
  readonly #parents = new Map<string, UIToolCall>();

  /** Registers the call of a `tool-call` event and gives it its id. */
  called(event: Event<'tool-call'> & { nodeId?: string }): UIToolCall {
    const base = `${event.step}/${event.toolCallId}`;
    const n = (this.#counts.get(base) ?? 0) + 1;
    this.#counts.set(base, n);
    const call: UIToolCall = {
      id: n === 1 ? base : `${base}#${n}`,
      runId: event.runId,
      step: event.step,
      toolCallId: event.toolCallId,
      ...(event.nodeId !== undefined ? { nodeId: event.nodeId } : {}),
    };
    const key = `${event.runId}|${event.toolCallId}`;
    this.#open.set(key, [...(this.#open.get(key) ?? []), call]);
    return call;
  }

  /** The open call `toolCallId` of run `runId` (the oldest, when a provider repeated the id). */
  find(runId: string, toolCallId: string): UIToolCall | undefined {
    return this.#open.get(`${runId}|${toolCallId}`)?.[0];
  }

  /** The latest open call `toolCallId` of run `runId` (what an approval request is about). */
  latest(runId: string, toolCallId: string): UIToolCall | undefined {
    return this.#open.get(`${runId}|${toolCallId}`)?.at(-1);
  }

  /** Removes the call (it returned, threw or was denied). */
  settled(call: UIToolCall): void {
    const key = `${call.runId}|${call.toolCallId}`;
    const rest = (this.#open.get(key) ?? []).filter((open) => open !== call);
    if (rest.length) this.#open.set(key, rest);
    else this.#open.delete(key);
  }

  /**
   * Links a child run to the open call that started it: the call whose trace node is the
   * child run's parent (`parentId` of its `run-start` in the run's log), else, for events
   * without nodes, the newest open call with its `toolCallId` (which two runs may share).
   */
  childStarted(
    runId: string,
    parentToolCallId: string,
    parentNodeId?: string,
  ): UIToolCall | undefined {
    let parent: UIToolCall | undefined;
    for (const calls of this.#open.values())
      for (const call of calls) {
        const starts =
          parentNodeId !== undefined && call.nodeId !== undefined
            ? call.nodeId === parentNodeId
            : call.toolCallId === parentToolCallId && call.child === undefined;
        if (starts) parent = call;
      }
    if (parent) {
      parent.child = runId;
      this.#parents.set(runId, parent);
    }
    return parent;
  }

  /** The call that started child run `runId` (undefined for the outermost run). */
  parentOf(runId: string): UIToolCall | undefined {
    return this.#parents.get(runId);
  }
}
