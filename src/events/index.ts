export { EventStream } from './event-stream.js';
export type { RunEvent, RunEventType } from './run-event.js';
