/**
 * How an {@link EventStream} keeps its history short: consecutive events that `canJoin` are
 * kept as one, made by `join` when a late reader reaches it (or the next event cannot join).
 */
export interface EventJoining<T> {
  /** Whether `next` may be kept together with `first` (the first of a run of joinable events). */
  canJoin(first: T, next: T): boolean;
  /** One event standing for `events` (two or more, in order). */
  join(events: T[]): T;
}

/** A reader that has caught up with the history and now gets each event as it is pushed. */
interface LiveReader<T> {
  queue: T[];
  head: number;
  wake?: () => void;
}

/** How many of the last events (a run of joined ones counting as one) a late reader can always replay. */
export const EVENT_HISTORY_LIMIT = 10_000;

/**
 * A buffered, multi-reader async stream: every reader sees every event from the start, in
 * order, and ends when the stream closes. Internal to the run handle.
 *
 * A reader that is reading when an event is pushed gets that event as it is. The history a
 * late reader replays keeps runs of joinable events (`joining`) as one event, so a long run's
 * history grows with its events of substance, not with every token: a reader that starts
 * late gets the same text in fewer, larger pieces. It keeps at least the last `limit` of
 * those and at most twice as many (older ones are dropped, so a very long run holds a
 * bounded history): a reader that starts after some were dropped begins with the oldest one
 * kept.
 */
export class EventStream<T> implements AsyncIterable<T> {
  /** Finished history: what a late reader replays first (from the `dropped`-th event on). */
  private history: T[] = [];
  /** Events dropped from the front of the history. */
  private dropped = 0;
  /** The last run of joinable events, not yet joined (logically the history's last entry). */
  private tail: T[] = [];
  private readonly live = new Set<LiveReader<T>>();
  private closed = false;

  constructor(
    private readonly joining?: EventJoining<T>,
    private readonly limit = EVENT_HISTORY_LIMIT,
  ) {}

  push(event: T): void {
    if (this.closed) return;
    const first = this.tail[0];
    if (first !== undefined && !(this.joining?.canJoin(first, event) ?? false)) this.settleTail();
    this.tail.push(event);
    for (const reader of this.live) {
      reader.queue.push(event);
      wake(reader);
    }
  }

  close(): void {
    this.closed = true;
    for (const reader of this.live) wake(reader);
  }

  private settleTail(): void {
    if (this.tail.length === 0) return;
    this.history.push(this.tail.length === 1 ? this.tail[0]! : this.joining!.join(this.tail));
    this.tail = [];
    // dropped in batches, so each event is copied O(1) times on average
    if (this.history.length >= 2 * this.limit) {
      const over = this.history.length - this.limit;
      this.history = this.history.slice(over);
      this.dropped += over;
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    // replay the history (index counts from the first event ever); once caught up, take
    // events as they come
    let index = 0;
    while (true) {
      index = Math.max(index, this.dropped);
      if (index === this.dropped + this.history.length) this.settleTail();
      index = Math.max(index, this.dropped);
      if (index === this.dropped + this.history.length) break;
      yield this.history[index++ - this.dropped]!;
    }
    const reader: LiveReader<T> = { queue: [], head: 0 };
    this.live.add(reader);
    try {
      while (true) {
        if (reader.head < reader.queue.length) {
          const event = reader.queue[reader.head++]!;
          if (reader.head === reader.queue.length) {
            reader.queue = [];
            reader.head = 0;
          }
          yield event;
          continue;
        }
        if (this.closed) return;
        await new Promise<void>((resolve) => (reader.wake = resolve));
      }
    } finally {
      this.live.delete(reader);
    }
  }
}

function wake<T>(reader: LiveReader<T>): void {
  const resolve = reader.wake;
  reader.wake = undefined;
  resolve?.();
}
