/**
 * What a server process keeps of the runs it stopped to wait for approval answers, so a page
 * that lost its response before the request arrived still gets it when it reconnects. An
 * entry is kept under each of its keys (the chat id, the run id) until the chat's next
 * request takes it, `ttlMs` passes, or `max` newer entries pushed it out. Expired entries go
 * as others are added: no timer runs.
 */
export class StoppedRuns<T> {
  readonly #entries = new Map<string, { value: T; until: number; keys: readonly string[] }>();

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps `value` under each of `keys`, replacing what they held. */
  set(keys: readonly string[], value: T): void {
    for (const key of keys) this.delete(key);
    const entry = { value, until: this.now() + this.ttlMs, keys };
    for (const key of keys) this.#entries.set(key, entry);
    this.#prune();
  }

  /** The value kept under `key`, while it has not expired. */
  get(key: string): T | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until > this.now()) return entry.value;
    this.delete(key);
    return undefined;
  }

  /** Forgets the entry under `key`, under all its keys. */
  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry) for (const other of entry.keys) this.#entries.delete(other);
  }

  /** Drops expired entries, then the oldest ones past `max`. */
  #prune(): void {
    const now = this.now();
    const entries = new Set(this.#entries.values());
    let count = entries.size;
    // a Map iterates in insertion order: the oldest entries come first
    for (const entry of entries) {
      if (entry.until > now && count <= this.max) break;
      for (const key of entry.keys) this.#entries.delete(key);
      count--;
    }
  }
}
