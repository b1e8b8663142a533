export { applyEvent } from './apply-event.js';
export { EventStream } from './event-stream.js';
export { liveTrace } from './live-trace.js';
export type { ChildRunOutput, LiveTrace } from './live-trace.js';
export { traceWriter, RunTraceWriter } from './trace-writer.js';
export type { TraceWriterOptions } from './trace-writer.js';
export { handleEvent, handleEvents } from './handle-event.js';
export type { RunConsumer, RunOutcome } from './run-consumer.js';
export type {
  EventIdentity,
  RunEvent,
  RunEventType,
  RunLogEvent,
  RunLogEventOf,
  RunLogEventType,
  RunLogOnlyEvent,
} from './run-event.js';
