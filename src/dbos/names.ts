import type { DurablePlace } from '../engine/durable-engine.js';

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

/**
 * ms a batch of a run's events waits, after its first event, for the rest of its burst before
 * it is written (one transaction of 4 statements and a notification per write). A run's
 * events come in bursts around its model calls, each burst a few events apart by a database
 * round trip or two; without the wait a burst took two writes (its first event alone, the
 * rest once that write was done): about 6 writes a run of 3 steps, 3 with it (measured in
 * bench/scale-out-throughput.ts). Followers see an event this much later at most, as DBOS's
 * own notifications are coalesced over 10 ms. The run's last batch does not wait.
 */
export const EVENTS_BATCH_MS = 10;

/**
 * ms between a worker's polls of each of its workflows' queues while it has room for more runs
 * (DBOS's queue `minPollingIntervalMs`; DBOS's own default is 1000 ms). DBOS 5.x wakes no
 * worker when a run is enqueued or ends (its notifications cover messages, events and streams,
 * not queues); June's workers also poll a queue at once when a June client says it enqueued a
 * run there ({@link QUEUE_NOTICES_CHANNEL}) and when one of their runs of it ends (see
 * `QueueWakeups`), so this interval is what a run waits only when neither came: enqueued by
 * other means, a notice lost, or a DBOS version June cannot wake. Each poll of an idle queue
 * is a short transaction (4 statements), per worker and per workflow: 50 ms is 80 statements
 * a second for each, before any run. `startWorker({ pollingIntervalMs })` and `june worker
 * --polling-interval` set another; measured in bench/scale-out.ts (docs/scale-out.md, "How
 * long a run waits").
 */
export const QUEUE_POLLING_MS = 50;

/**
 * The PostgreSQL channel a June client (`RunClient`) notifies after it enqueues a run, with
 * the run's queue name as payload; workers of that workflow listen and poll its queue at once
 * instead of at their next poll (see `QueueWakeups`). A run enqueued by other means (DBOS's own
 * client) waits for a poll as before.
 */
export const QUEUE_NOTICES_CHANNEL = 'june_queues';

/**
 * ms between a follower's reads of a run's event stream while it waits for the next events
 * (`RunClient.events`: the web chat, `june run --database`, Studio), when no notification
 * woke it sooner. A `DBOSClient` does not listen for PostgreSQL notifications itself: June's
 * `RunClient` listens on a connection of its own and wakes its reads when a worker writes
 * (see `StreamWakeups`), so this interval only bounds the wait when notifications do not
 * come through (a pooler in transaction mode drops them). DBOS's default of 1000 ms made a
 * follower see a run's first event about 1 s after it was written (measured in
 * bench/scale-out.ts). Each read is one statement while a follower waits.
 */
export const FOLLOW_POLLING_MS = 50;

/**
 * The DBOS event that listed a run's approval requests as one whole list, written by runs
 * of June before each request had an event of its own ({@link approvalEvent}): still read
 * for runs that made requests then.
 */
export const APPROVALS_EVENT = 'june.approvals';

/**
 * The DBOS event of a run's `index`-th approval request (0-based, in the order the run asks
 * them, the same on every recovery). One event per request: the requests of one turn are
 * published at once, and DBOS writes concurrent events in any order, so a whole list written
 * each time could be overwritten by an older one.
 *
 * @example
 * ```ts
 * approvalEvent(0); // 'june.approval:0'
 * ```
 */
export function approvalEvent(index: number): string {
  return `june.approval:${index}`;
}

/**
 * The model turn of an approval request id (`turn-1#0` for `turn-1#0.1`): the requests of
 * one turn are answered together. `undefined` for an id without one.
 */
export function approvalTurn(requestId: string): string | undefined {
  return /^(.*#\d+)\.\d+$/.exec(requestId)?.[1];
}

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

/**
 * The PostgreSQL channel a June client (`RunClient.approve`, through `AnswerStore`) notifies
 * when it stores an answer, with the run's id as payload: the worker waiting for it looks it
 * up at once instead of at its next poll ({@link ANSWER_POLLING_MS}; see `AnswerWaits`).
 */
export const ANSWERS_CHANNEL = 'june_answers';

/**
 * ms between a worker's looks for the answers its runs wait for, when no notification
 * ({@link ANSWERS_CHANNEL}) came sooner: one statement for all of them, and only while
 * one waits.
 */
export const ANSWER_POLLING_MS = 1000;

/**
 * The key of an approval request in a run's place table (`june.calls`): its request id, so
 * a recovered run that asks its requests in another order finds each one's own record.
 *
 * @example
 * ```ts
 * approvalRequestKey('fan#0.1/get#0.0'); // 'approval fan#0.1/get#0.0'
 * ```
 */
export function approvalRequestKey(requestId: string): string {
  return `approval ${requestId}`;
}

/** The key of the answer a run took for its approval request (see {@link approvalRequestKey}). */
export function approvalAnswerKey(requestId: string): string {
  return `answer ${requestId}`;
}

/** The DBOS topic an approval's answer was sent on, to runs that wait with `DBOS.recv`. */
export function approvalTopic(requestId: string): string {
  return `june.approval:${requestId}`;
}

/**
 * A tool call's approval request id, the same on every recovery: the composite calls on the
 * way and the call id at its step, joined by `/` (`release#0.0`, `research#1.0/findings#0.0`).
 */
export function approvalRequestId(place: DurablePlace, call: string): string {
  return [...(place.calls ?? []), call].join('/');
}

/**
 * The DBOS step name of a model call or tool execution at its place: DBOS checks it when a
 * recovered run reaches the step, so a workflow that now does something else there stops.
 */
export function stepName(
  kind: 'model' | 'tool',
  place: DurablePlace,
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
