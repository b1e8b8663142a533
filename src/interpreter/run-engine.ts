import { DurableCalls } from '../engine/durable-calls.js';
import type {
  DurableEngineFactory,
  DurableRunStart,
  DurableRunStatus,
} from '../engine/durable-engine.js';
import type { RunLogEvent } from '../events/run-event.js';

/**
 * A run's durable engine (`RunOptions.engine`: a journal, a resume, a replay, DBOS...), with
 * the bookkeeping every engine shares ({@link DurableCalls}), once it is made. Built once per
 * run from its factory; the engine itself is made inside the run ({@link open}), so the events
 * emitted before it exists (the run's `run-start`) are kept and published to it once it does:
 * an engine publishes the whole log. With no factory it holds nothing and costs nothing.
 *
 * @example
 * ```ts
 * const engine = new RunEngine(options.engine);
 * await engine.open({ runId, workflow, redactor, stop, signal });
 * const tools = engine.durable?.tools(agentTools, place, addUsage);
 * await engine.finish('succeeded');
 * ```
 */
export class RunEngine {
  readonly #factory: DurableEngineFactory | undefined;
  #durable: DurableCalls | undefined;
  /** The events published before the engine was made; undefined once it is, or with none coming. */
  #missed: RunLogEvent[] | undefined;
  #threadClaimed: string | undefined;

  constructor(factory: DurableEngineFactory | undefined) {
    this.#factory = factory;
    if (factory) this.#missed = [];
  }

  /** Whether the run has an engine (made or to be made), which follows every event as it comes. */
  get follows(): boolean {
    return this.#factory !== undefined;
  }

  /** The engine with its shared bookkeeping, once made; undefined for a run without one. */
  get durable(): DurableCalls | undefined {
    return this.#durable;
  }

  /** The error the engine stopped the run with, once it did (see `DurableEngine.failure`). */
  get failure(): unknown {
    return this.#durable?.engine.failure;
  }

  /**
   * Makes the engine (when the run has a factory) and publishes to it the events it missed.
   * @throws whatever the factory throws (`journal-missing`, `journal-exists`...).
   */
  async open(start: DurableRunStart): Promise<void> {
    if (!this.#factory) return;
    const durable = new DurableCalls(await this.#factory(start));
    this.#durable = durable;
    for (const event of this.#missed ?? []) durable.engine.publish?.(event);
    this.#missed = undefined;
  }

  /** Hands one log event to the engine (kept until it is made). */
  publish(event: RunLogEvent): void {
    if (this.#durable) this.#durable.engine.publish?.(event);
    else this.#missed?.push(event);
  }

  /**
   * The history an agent starts from when it is the thread's agent: the one the thread
   * names, or, when it names none, the first agent outside any other in the outermost run.
   * Claimed once; `undefined` for every other agent and for a run of no thread.
   */
  claimThread(agent: string, outermost: boolean): readonly unknown[] | undefined {
    const thread = this.#durable?.engine.thread;
    if (!thread || (this.#threadClaimed ?? agent) !== agent) return undefined;
    if (thread.agent !== undefined ? thread.agent !== agent : !outermost) return undefined;
    // claimed by its name: a <Catch> that runs the agent again gets the history again
    this.#threadClaimed = agent;
    return thread.messages;
  }

  /** Hands the thread agent's conversation to the engine when the agent finished. */
  keepConversation(agent: string, messages: readonly unknown[]): void {
    this.#durable?.engine.conversation?.(agent, messages);
  }

  /** Tells the engine how the run ended (see `DurableEngine.finish`); nothing without one. */
  async finish(status: DurableRunStatus, error?: unknown): Promise<void> {
    await this.#durable?.engine.finish(status, error);
  }
}
