import type { JournalPlace } from '../journal/journal-record.js';

/** The name June's run workflow is registered under with DBOS. */
export const RUN_WORKFLOW = 'june.run';

/** The DBOS application name June's workers, clients and queues share. */
export const APPLICATION = 'june';

/**
 * The application version every June worker declares. DBOS recovers only the workflows of
 * its own version; June checks a recovered run against its workflow itself (a changed
 * workflow fails with `journal-mismatch` before any tool runs), so one version fits all.
 */
export const APPLICATION_VERSION = 'june-run-1';

/** The stream a run's events are written to, for followers (`june run --follow`, Studio). */
export const EVENTS_STREAM = 'june.events';

/** The DBOS event that lists a run's approval requests (each with its stable id). */
export const APPROVALS_EVENT = 'june.approvals';

/**
 * The queue of a workflow's runs: one per workflow name, so a worker only takes the runs of
 * the workflows it was given.
 *
 * @example
 * ```ts
 * queueName('release'); // 'june.release'
 * ```
 */
export function queueName(workflow: string): string {
  return `june.${workflow}`;
}

/** The topic an approval's answer is sent on. */
export function approvalTopic(requestId: string): string {
  return `june.approval:${requestId}`;
}

/**
 * A tool call's approval request id, the same on every recovery: the composite calls on the
 * way and the call id at its step, joined by `/` (`release#0.0`, `research#1.0/findings#0.0`).
 */
export function approvalRequestId(place: JournalPlace, call: string): string {
  return [...(place.calls ?? []), call].join('/');
}

/**
 * The DBOS step name of a model call or tool execution at its place: DBOS checks it when a
 * recovered run reaches the step, so a workflow that now does something else there stops.
 */
export function stepName(
  kind: 'model' | 'tool',
  place: JournalPlace,
  at: string | number,
  tool?: string,
): string {
  const calls = place.calls?.length ? `${place.calls.join('/')}/` : '';
  return kind === 'model'
    ? `june.model ${calls}${place.step} #${at}`
    : `june.tool ${tool} ${calls}${at}`;
}

/** The step path and index of a model step name, or `undefined` for another step. */
export function modelStepOf(name: string): { step: string; calls: string } | undefined {
  const match = /^june\.model (.*\/)?([^/]+) #\d+$/.exec(name);
  return match ? { step: match[2]!, calls: match[1] ?? '' } : undefined;
}
