import type { ApprovalRequest } from './approval-request.js';

/** A call whose approval request was answered while other requests of its model turn wait. */
export interface HeldApproval {
  request: ApprovalRequest;
  approved: boolean;
}

interface Turn {
  /** The keys of every request of the turn. */
  keys: ReadonlySet<string>;
  /** Those answered (or withdrawn) so far, with the answered ones' calls. */
  settled: Map<string, HeldApproval | undefined>;
}

/**
 * The answered requests of the model turns whose other requests still wait. A step answers
 * the requests of one turn together (the AI SDK's loop goes on once each has an answer), so
 * a call answered first does not run yet: it is held, and it waits with the turn's open
 * requests. The step announces a turn's requests ({@link turn}) before it asks about any,
 * so a call answered before its siblings were even asked is held too.
 *
 * @example
 * ```ts
 * const held = new HeldAnswers();
 * held.turn(['r/a#0.0', 'r/a#0.1']);
 * held.settled('r/a#0.0', { request: a1, approved: true });
 * held.list; // [{ request: a1, approved: true }]: 'r/a#0.1' is still open
 * ```
 */
export class HeldAnswers {
  readonly #turns = new Map<string, Turn>();

  /** Announces the requests (by key) one model turn is about to ask. */
  turn(keys: readonly string[]): void {
    if (keys.length < 2) return;
    const turn: Turn = { keys: new Set(keys), settled: new Map() };
    for (const key of keys) this.#turns.set(key, turn);
  }

  /**
   * The request `key` stopped waiting: answered (`held`: its call and decision) or withdrawn
   * (`undefined`). Once every request of its turn did, the turn is over.
   */
  settled(key: string, held?: HeldApproval): void {
    const turn = this.#turns.get(key);
    if (!turn) return;
    turn.settled.set(key, held);
    if (turn.settled.size < turn.keys.size) return;
    for (const done of turn.keys) this.#turns.delete(done);
  }

  /** The calls held now, in the order they were answered. */
  get list(): HeldApproval[] {
    const turns = new Set(this.#turns.values());
    return [...turns].flatMap((turn) =>
      [...turn.settled.values()].filter((held): held is HeldApproval => held !== undefined),
    );
  }
}
