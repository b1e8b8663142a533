import type { RunLogEvent, RunLogEventType } from './run-event.js';

/** What a kind of run event concerns, for views that treat kinds alike. */
export interface RunEventKind {
  /**
   * The kind of trace node the event concerns (`catch`: an attempt of a `<Catch>`;
   * `parallel` a `<Parallel>`, `branch` one of its branches).
   */
  node: 'run' | 'agent' | 'step' | 'model' | 'tool' | 'catch' | 'parallel' | 'branch';
  /**
   * `start` opens its node, `finish` closes it, `delta` streams a piece of a model call's
   * text or reasoning (many come, joined by readers), `point` tells of something at a node
   * already open (a tool's approval, a `<Catch>`'s failure or retry, an agent's compaction).
   */
  phase: 'start' | 'finish' | 'delta' | 'point';
}

/**
 * Every kind of run event, with what it concerns: the one list of kinds at run time. Its
 * keys are checked against {@link RunLogEventType} by the compiler both ways (a kind missing
 * here, or one the type lacks, does not compile), and every view that treats kinds alike
 * (the trace writer and the span exporter skipping deltas, the log holding text back for
 * redaction) reads it rather than a list of its own.
 */
export const runEventKinds: { readonly [T in RunLogEventType]: RunEventKind } = {
  'run-start': { node: 'run', phase: 'start' },
  'run-finish': { node: 'run', phase: 'finish' },
  'agent-start': { node: 'agent', phase: 'start' },
  'agent-finish': { node: 'agent', phase: 'finish' },
  compaction: { node: 'agent', phase: 'point' },
  'step-start': { node: 'step', phase: 'start' },
  'step-finish': { node: 'step', phase: 'finish' },
  'model-start': { node: 'model', phase: 'start' },
  'model-finish': { node: 'model', phase: 'finish' },
  'text-delta': { node: 'model', phase: 'delta' },
  'reasoning-delta': { node: 'model', phase: 'delta' },
  'tool-call': { node: 'tool', phase: 'start' },
  'tool-result': { node: 'tool', phase: 'finish' },
  'tool-error': { node: 'tool', phase: 'finish' },
  'tool-denied': { node: 'tool', phase: 'finish' },
  'guard-decision': { node: 'tool', phase: 'point' },
  budget: { node: 'step', phase: 'point' },
  'approval-request': { node: 'tool', phase: 'point' },
  'approval-response': { node: 'tool', phase: 'point' },
  'approval-withdraw': { node: 'tool', phase: 'point' },
  'catch-start': { node: 'catch', phase: 'start' },
  'catch-finish': { node: 'catch', phase: 'finish' },
  error: { node: 'catch', phase: 'point' },
  retry: { node: 'catch', phase: 'point' },
  'parallel-start': { node: 'parallel', phase: 'start' },
  'parallel-finish': { node: 'parallel', phase: 'finish' },
  'branch-start': { node: 'branch', phase: 'start' },
  'branch-finish': { node: 'branch', phase: 'finish' },
};

/** Every kind of run event, in the order of {@link runEventKinds}. */
export const runEventTypes = Object.keys(runEventKinds) as readonly RunLogEventType[];

/** True for a kind of run event (a `type` read from the wire or a file, say). */
export function isRunEventType(type: unknown): type is RunLogEventType {
  return typeof type === 'string' && Object.hasOwn(runEventKinds, type);
}

/** A piece of streamed text or reasoning. */
export type DeltaEvent = Extract<RunLogEvent, { type: 'text-delta' | 'reasoning-delta' }>;

/** True for a streamed piece of a model call's text or reasoning (see {@link RunEventKind.phase}). */
export function isDelta(event: RunLogEvent): event is DeltaEvent {
  return runEventKinds[event.type].phase === 'delta';
}
