import type { StudioEvent } from './run-list.js';

/**
 * The listeners of a host's list ({@link RunHost.subscribe}): `add` returns what removes the
 * listener; `send` tells each one, and a listener that throws never stops the others.
 *
 * @example
 * ```ts
 * const listeners = new HostListeners();
 * const stop = listeners.add((event) => console.log(event.type));
 * listeners.send({ type: 'run-removed', runId: 'r1' });
 * stop();
 * ```
 */
export class HostListeners {
  readonly #listeners = new Set<(event: StudioEvent) => void>();

  add(onChange: (event: StudioEvent) => void): () => void {
    const listener = (event: StudioEvent) => onChange(event);
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** True while one listener or more is added: a host need not build what nobody hears. */
  get listening(): boolean {
    return this.#listeners.size > 0;
  }

  send = (event: StudioEvent): void => {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // one page's failure is its own
      }
    }
  };
}
