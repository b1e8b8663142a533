import type { RunEvent, RunLogEvent } from './run-event.js';

/** The fields of a log event that `handle.events` does not show, by type. */
const logOnlyFields: Partial<Record<RunLogEvent['type'], readonly string[]>> = {
  'run-finish': ['failures', 'abandoned'],
  'agent-start': ['model'],
  'agent-finish': ['error', 'unstarted'],
  'step-finish': ['error', 'unstarted', 'messages', 'modelUsage'],
  'tool-error': ['status'],
  'approval-withdraw': ['unasked'],
};

/** The log's own kinds, which `handle.events` leaves out. */
const logOnlyTypes = new Set<string>([
  'model-start',
  'model-finish',
  'tool-denied',
  'catch-start',
  'catch-finish',
  'reasoning-delta',
]);

/**
 * A log event as `handle.events` shows it, or `undefined` when it does not show it: without
 * its identity (`nodeId`, `parentId`, `at`) and the fields only the log has, and without the
 * log's own kinds (model calls, denied calls, `<Catch>` attempts, reasoning), a finish whose
 * start never came, or the withdrawal of an approval nobody was asked for.
 *
 * @example
 * ```ts
 * handleEvent({ type: 'run-start', runId: 'r', nodeId: 'n1', at: 1764504000000 }); // { type: 'run-start', runId: 'r' }
 * ```
 */
export function handleEvent(event: RunLogEvent): RunEvent | undefined {
  if (logOnlyTypes.has(event.type)) return undefined;
  if ('unstarted' in event || 'unasked' in event) return undefined;
  const { nodeId: _n, parentId: _p, at: _a, ...shown } = event as RunLogEvent & object;
  for (const field of logOnlyFields[event.type] ?? [])
    delete (shown as Record<string, unknown>)[field];
  return shown as RunEvent;
}

/**
 * The events `handle.events` yields, read from a run's log: each reader of the result reads
 * the log from its start (see {@link handleEvent}).
 */
export function handleEvents(log: AsyncIterable<RunLogEvent>): AsyncIterable<RunEvent> {
  return {
    async *[Symbol.asyncIterator]() {
      for await (const event of log) {
        const shown = handleEvent(event);
        if (shown) yield shown;
      }
    },
  };
}
