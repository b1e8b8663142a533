import type { ApprovalAnswerResult } from './approval-answer-result.js';
import type { ApprovalRequest } from './approval-request.js';
import type { ApprovalSource, SourceInbox } from './approval-source.js';

interface Connected {
  source: ApprovalSource;
  inbox: SourceInbox;
  disconnect: (() => void | Promise<void>) | undefined;
}

/**
 * The sources connected to one inbox: connects them, tells them about requests, and
 * disconnects them. A source that throws gets a process warning, never the run's failure.
 */
export class SourceSet {
  readonly #connected = new Set<Connected>();
  readonly #inboxFor: (source: ApprovalSource) => SourceInbox;

  constructor(inboxFor: (source: ApprovalSource) => SourceInbox) {
    this.#inboxFor = inboxFor;
  }

  /** Connects `source` and tells it about `waiting`; returns what disconnects it. */
  add(source: ApprovalSource, waiting: readonly ApprovalRequest[]): () => Promise<void> {
    const inbox = this.#inboxFor(source);
    const entry: Connected = { source, inbox, disconnect: undefined };
    this.#connected.add(entry);
    const disconnect = guard(source, 'connect', () => source.connect?.(inbox));
    if (typeof disconnect === 'function') entry.disconnect = disconnect;
    // an async connect gives its disconnect later: kept, or called at once if it came too late
    else if (disconnect instanceof Promise)
      void disconnect.then((later: unknown) => {
        if (typeof later !== 'function') return;
        const undo = later as () => void | Promise<void>;
        if (this.#connected.has(entry)) entry.disconnect = undo;
        else guard(source, 'disconnect', undo);
      });
    for (const request of waiting)
      guard(source, 'requested', () => source.requested?.(request, inbox));
    return () => this.#remove(entry);
  }

  /** Tells every source that `request` waits. */
  requested(request: ApprovalRequest): void {
    for (const { source, inbox } of [...this.#connected])
      guard(source, 'requested', () => source.requested?.(request, inbox));
  }

  /** Tells every source that `request` stopped waiting. */
  settled(request: ApprovalRequest, result: ApprovalAnswerResult): void {
    for (const { source } of [...this.#connected])
      guard(source, 'settled', () => source.settled?.(request, result));
  }

  /** Disconnects every source; resolves when each has let go. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#connected].map((entry) => this.#remove(entry)));
  }

  async #remove(entry: Connected): Promise<void> {
    if (!this.#connected.delete(entry)) return;
    try {
      await entry.disconnect?.();
    } catch (error) {
      warn(entry.source, 'disconnect', error);
    }
  }
}

function guard<T>(source: ApprovalSource, what: string, call: () => T): T | undefined {
  try {
    const value = call();
    if (value instanceof Promise) value.catch((error: unknown) => warn(source, what, error));
    return value;
  } catch (error) {
    warn(source, what, error);
    return undefined;
  }
}

function warn(source: ApprovalSource, what: string, error: unknown): void {
  process.emitWarning(
    `june: the approval source "${source.name}" threw in ${what}: ${error instanceof Error ? error.message : String(error)}`,
  );
}
