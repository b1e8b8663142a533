import { StudioRequestError } from '../host/studio-request-error.js';

/** How many `june` processes the workbench runs at once (runs started from the page, tried tools). */
export const WORKBENCH_PROCESSES_MAX = 8;

/**
 * The workbench's bound on the `june` processes it starts: each start takes a slot, given
 * back when the process exits, and a start with every slot taken is refused, so a page (or
 * anything else with the answer token) sending many requests at once cannot start more than
 * `max` processes.
 *
 * @example
 * ```ts
 * const slots = new ProcessSlots();
 * const release = slots.take(); // throws a 429 when all are taken
 * child.on('exit', release);
 * ```
 */
export class ProcessSlots {
  #taken = 0;

  /** @param max - processes at once. @default {@link WORKBENCH_PROCESSES_MAX} */
  constructor(readonly max: number = WORKBENCH_PROCESSES_MAX) {}

  /**
   * Takes a slot for one process.
   * @returns what gives it back (once, however often it is called)
   * @throws {StudioRequestError} `studio-runs-busy` (429) when all `max` are taken.
   */
  take(): () => void {
    if (this.#taken >= this.max)
      throw new StudioRequestError(
        'studio-runs-busy',
        `june: Studio is running ${this.max} runs and tool calls started from the workbench, the most it runs at once; wait until one ends (answer the approvals they wait for, or stop one), then start this one again.`,
        429,
      );
    this.#taken++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#taken--;
    };
  }
}
