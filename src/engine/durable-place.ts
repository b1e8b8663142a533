import type { DurablePlace } from './durable-engine.js';

/**
 * The key of a place: the composite call ids and the step path.
 *
 * @example
 * ```ts
 * placeKey({ step: 'research:findings', calls: ['call_1'] }); // 'call_1|research:findings'
 * ```
 */
export function placeKey(place: DurablePlace): string {
  return `${(place.calls ?? []).join('/')}|${place.step}`;
}

/**
 * The id of a tool call at its place: the step's id (the last part of its path), the 0-based
 * index of the model call that asked for it at that place, and the tool call's 0-based
 * position among that answer's tool calls. The same on every resume, since recorded model
 * answers are given again.
 *
 * @example
 * ```ts
 * callIdOf('release:prepare', 1, 0); // 'prepare#1.0'
 * ```
 */
export function callIdOf(step: string, modelIndex: number, position: number): string {
  return `${step.slice(step.lastIndexOf(':') + 1)}#${modelIndex}.${position}`;
}

/**
 * A place in words, for messages: `step "research:findings" (inside the tool call call_1)`,
 * `step "review" (inside the branch a)` for a step in the `<Parallel>` branch keyed `a`.
 *
 * @example
 * ```ts
 * describePlace({ step: 'release' }); // 'step "release"'
 * ```
 */
export function describePlace(place: DurablePlace): string {
  const calls = place.calls ?? [];
  const shown = calls.map((call) =>
    isBranch(call)
      ? `the branch ${decodeURIComponent(call.slice(1, -1))}`
      : `the tool call ${call}`,
  );
  const inside = shown.length > 0 ? ` (inside ${shown.join(' > ')})` : '';
  return `step "${place.step}"${inside}`;
}

/** A `<Parallel>` branch among a place's calls: its key in brackets (`[a]`). */
function isBranch(call: string): boolean {
  return call.startsWith('[') && call.endsWith(']');
}
