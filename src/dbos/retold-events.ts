import type { RunLogEvent } from '../events/run-event.js';
import { isDelta } from '../events/run-event-kinds.js';

/**
 * What a follower of a run over DBOS passes on of the events it reads: a recovered run tells
 * its events again from the start, in the order its recovery does the work (concurrent
 * `<Parallel>` branches and tool calls may start in another order), and the follower gives
 * each event once. An event is known by what it concerns, never by its position: its node
 * (node ids are derived from places, so a node has the same id in every telling), its type,
 * and how many events of that type that node had before it in the telling (a node's own
 * events come in one order). Streamed text is matched by length: of a model call's text told
 * again, only what goes past the text given is passed on.
 *
 * Child run ids are numbered in the order child runs start, so a telling may give a child
 * run another's id: each child run keeps the id it was first given, and a child run new to
 * the follower whose id was given to another gets a new number.
 *
 * @example
 * ```ts
 * const retold = new RetoldEvents();
 * retold.telling(); // a batch marked `first`
 * const event = retold.take(told); // undefined when it was given already
 * ```
 */
export class RetoldEvents {
  /** How many events of each node and type were given (of deltas: how many characters). */
  readonly #given = new Map<string, number>();
  /** The same, in the telling read now. */
  #told = new Map<string, number>();
  /** The run id given with each run node's `run-start`. */
  readonly #runIds = new Map<string, string>();
  /** Every run id given. */
  readonly #shown = new Set<string>();
  /** This telling's run ids, as they were given. */
  #aliases = new Map<string, string>();

  /** A new telling starts: its events are matched from the start. */
  telling(): void {
    this.#told = new Map();
    this.#aliases = new Map();
  }

  /** The event to pass on for `event`, or undefined when it was given already. */
  take(event: RunLogEvent): RunLogEvent | undefined {
    if (event.type === 'run-start') this.#alias(event.runId, event.nodeId);
    const shown = this.#aliases.get(event.runId) ?? event.runId;
    const named = shown === event.runId ? event : { ...event, runId: shown };
    const key = `${event.type} ${event.nodeId}`;
    const given = this.#given.get(key) ?? 0;
    if (isDelta(named)) {
      const told = (this.#told.get(key) ?? 0) + named.delta.length;
      this.#told.set(key, told);
      if (told <= given) return undefined;
      this.#given.set(key, told);
      const from = named.delta.length - (told - given);
      return from <= 0 ? named : { ...named, delta: named.delta.slice(from) };
    }
    const told = (this.#told.get(key) ?? 0) + 1;
    this.#told.set(key, told);
    if (told <= given) return undefined;
    this.#given.set(key, told);
    return named;
  }

  /** The id the run `runId` of the run node `nodeId` is shown with from now on. */
  #alias(runId: string, nodeId: string): void {
    let shown = this.#runIds.get(nodeId);
    if (shown === undefined) {
      shown = this.#shown.has(runId) ? this.#unused(runId) : runId;
      this.#runIds.set(nodeId, shown);
      this.#shown.add(shown);
    }
    this.#aliases.set(runId, shown);
  }

  /** A run id not given yet, like `runId` (`<run>.<n>`: the next number). */
  #unused(runId: string): string {
    const numbered = /^(.*)\.(\d+)$/.exec(runId);
    const base = numbered ? numbered[1]! : runId;
    for (let n = numbered ? Number(numbered[2]) + 1 : 2; ; n++) {
      const id = `${base}.${n}`;
      if (!this.#shown.has(id)) return id;
    }
  }
}
