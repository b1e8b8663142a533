/** Counts each client's calls in progress, up to a limit (calls at once, per client name). */
export class CallLimits {
  readonly #running = new Map<string, number>();
  constructor(readonly limit: number) {}
  /** A function that gives the call back, or a `june:` message when the client is at its limit. */
  take(client: string): (() => void) | string {
    const now = this.#running.get(client) ?? 0;
    if (now >= this.limit)
      return `june: the client "${client}" has ${now} calls running, as many as it may; wait for one to end.`;
    this.#running.set(client, now + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#running.set(client, (this.#running.get(client) ?? 1) - 1);
    };
  }
}
