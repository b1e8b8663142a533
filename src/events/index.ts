export { applyEvent } from './apply-event.js';
export { EventStream } from './event-stream.js';
export { liveTrace } from './live-trace.js';
export type { ChildRunOutput, LiveTrace } from './live-trace.js';
export { traceWriter, RunTraceWriter } from './trace-writer.js';
export type { TraceWriterOptions } from './trace-writer.js';
export { isDelta, isRunEventType, runEventKinds, runEventTypes } from './run-event-kinds.js';
export type { DeltaEvent, RunEventKind } from './run-event-kinds.js';
export type { RunConsumer, RunOutcome } from './run-consumer.js';
export type {
  EventIdentity,
  RunEvent,
  RunEventFields,
  RunEventType,
  RunLogEvent,
  RunLogEventOf,
  RunLogEventType,
} from './run-event.js';
