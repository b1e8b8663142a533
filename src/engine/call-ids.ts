import type { AskedToolCall } from '../models/answer-forms.js';
import type { DurablePlace } from './durable-engine.js';
import { callIdOf, placeKey } from './durable-place.js';

/**
 * Gives every tool call of a run its identity: its place and its call id ({@link callIdOf}:
 * step, model call index, position in the answer), never the provider's `toolCallId`
 * alone. Each model answer's tool calls are registered before the AI SDK sees them; a
 * `toolCallId` then names the latest call with that id at that place. That is exact: within
 * one step, a model answer's tool calls are approved and executed before the next model call
 * is made, so an id repeated by a later turn (providers that restart ids every turn) only
 * comes after the earlier call is done.
 *
 * A call whose model answer was not registered (a model the engine does not wrap) falls
 * back to `<step id>#<toolCallId>`.
 *
 * @example
 * ```ts
 * const ids = new CallIds();
 * ids.register({ step: 'main' }, 1, [{ toolCallId: 'helper:0', toolName: 'helper' }]);
 * ids.of({ step: 'main' }, 'helper:0'); // 'main#1.0'
 * ```
 */
export class CallIds {
  readonly #latest = new Map<string, string>();

  /** Registers the tool calls of the model call with 0-based `index` at `place`. */
  register(place: DurablePlace, index: number, calls: readonly AskedToolCall[]): void {
    const at = placeKey(place);
    calls.forEach((call, position) =>
      this.#latest.set(`${at}|${call.toolCallId}`, callIdOf(place.step, index, position)),
    );
  }

  /** The call id of the tool call `toolCallId` at `place`. */
  of(place: DurablePlace, toolCallId: string): string {
    return (
      this.#latest.get(`${placeKey(place)}|${toolCallId}`) ??
      `${place.step.slice(place.step.lastIndexOf(':') + 1)}#${toolCallId}`
    );
  }
}
