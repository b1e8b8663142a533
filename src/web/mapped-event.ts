import type { RunEvent, RunLogEvent } from '../events/run-event.js';

/**
 * What the UI stream reads: a run's log events (with their trace nodes: `nodeId`,
 * `parentId`), or the events of `handle.events` for a source that has no log.
 */
export type MappedEvent = RunEvent | RunLogEvent;

/** A mapped event of the kinds `handle.events` has (the log's own kinds left out). */
export type MappedRunEvent = Extract<MappedEvent, { type: RunEvent['type'] }>;

const logOnly = new Set<string>([
  'model-start',
  'model-finish',
  'tool-denied',
  'catch-start',
  'catch-finish',
  'reasoning-delta',
]);

/** True for the kinds of events only a run's log has (model calls, `<Catch>` attempts, ...). */
export function isLogOnly(event: MappedEvent): event is Exclude<MappedEvent, MappedRunEvent> {
  return logOnly.has(event.type);
}

/** The event's trace node and its parent, when it came from a run's log. */
export function nodeOf(event: MappedEvent): { nodeId?: string; parentId?: string } {
  return 'nodeId' in event ? event : {};
}
