import type { RunLogEvent } from '../events/run-event.js';

/** What `RunLog.emit` takes: a log event, its time `at` optional (now). */
export type EventInput = RunLogEvent extends infer E
  ? E extends RunLogEvent
    ? Omit<E, 'at'> & { at?: number }
    : never
  : never;
