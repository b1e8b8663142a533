import type { ApprovalRequest } from './approval-request.js';
import type { HeldApproval } from './held-answers.js';

/**
 * A run with approval requests waiting: its id, its pending requests, oldest first, and the
 * calls held with them (answered, but their step goes on only once the requests of their
 * model turn still open are answered).
 */
export interface WaitingRun {
  readonly runId: string;
  readonly requests: ApprovalRequest[];
  readonly held?: HeldApproval[];
}

const waiting = new Set<WaitingRun>();

/**
 * Says, once, on stderr, which runs still wait for an answer when the process is about to
 * exit: Node emits `beforeExit` when nothing is left to do, so a program that never answers
 * would otherwise end silently (an unsettled top-level await, exit code 13).
 */
function onBeforeExit(): void {
  const runs = [...waiting].filter((run) => run.requests.length > 0);
  waiting.clear();
  process.off('beforeExit', onBeforeExit);
  for (const run of runs) process.stderr.write(`${unansweredMessage(run)}\n`);
}

/**
 * Watches `run` while it has approval requests pending: a `beforeExit` listener is on only
 * while some run is watched, so a process with none pays nothing.
 *
 * @example
 * ```ts
 * watchUnanswered(run); // when its first request becomes pending
 * unwatchUnanswered(run); // when its last one is answered or withdrawn
 * ```
 */
export function watchUnanswered(run: WaitingRun): void {
  if (waiting.size === 0) process.on('beforeExit', onBeforeExit);
  waiting.add(run);
}

/** Stops watching `run` (see {@link watchUnanswered}). */
export function unwatchUnanswered(run: WaitingRun): void {
  if (!waiting.delete(run)) return;
  if (waiting.size === 0) process.off('beforeExit', onBeforeExit);
}

/**
 * The message for a run whose approval requests nobody answered before the process ran out
 * of work: which run, which tool calls in which steps, and how to answer them.
 *
 * @example
 * ```ts
 * unansweredMessage({ runId: 'r1', requests: [{ id: 'a1', tool: 'deploy', step: 'release', input: {}, toolCallId: 'c1' }] });
 * // 'june: the process is about to exit, but run r1 waits for an answer to approval request "a1" ...'
 * ```
 */
export function unansweredMessage(run: WaitingRun): string {
  const [first] = run.requests;
  const calls = run.requests.map(
    (request) =>
      `${request.kind === 'question' ? 'question' : 'approval request'} "${request.id}" (${
        request.kind === 'question'
          ? `the question "${request.tool}" in step "${request.step}": ${compact(request.question?.prompt ?? '')}`
          : `the tool "${request.tool}" in step "${request.step}", input ${compact(request.input)}`
      })`,
  );
  const asks = run.requests.some((request) => request.kind === 'question');
  const what =
    calls.length === 1
      ? calls[0]
      : `${calls.length} ${asks ? 'requests' : 'approval requests'}: ${calls.join(', ')}`;
  const how =
    first!.kind === 'question'
      ? `with handle.respond("${first!.id}", answer) (a value its answer schema accepts) or handle.deny("${first!.id}", reason), ` +
        'or answer them all with run(workflow, { onApproval: (request) => answerQuestion(value) }); '
      : `with handle.approve("${first!.id}") or handle.deny("${first!.id}", reason), ` +
        'or decide them all with run(workflow, { onApproval: (request) => true }); ';
  return (
    `june: the process is about to exit, but run ${run.runId} waits for an answer to ${what}, and nothing is left that could answer. ` +
    heldText(run.held ?? []) +
    `Answer each request from its approval-request event or handle.pendingApprovals, ${how}` +
    'handle.abort() ends the run instead.'
  );
}

/**
 * The sentence on the approved calls held with the open requests (empty when none is): a
 * step goes on once every request of its model turn is answered, so they wait too.
 */
function heldText(held: HeldApproval[]): string {
  const approved = held.filter((call) => call.approved);
  if (approved.length === 0) return '';
  const calls = approved.map(
    ({ request }) =>
      `"${request.id}" (the tool "${request.tool}" in step "${request.step}", input ${compact(request.input)})`,
  );
  const one = approved.length === 1;
  const subject = one
    ? `The call of approval request ${calls[0]} was approved`
    : `The calls of approval requests ${calls.join(', ')} were approved`;
  return `${subject} but ${one ? 'waits' : 'wait'} too: a step goes on only once every request of its model turn is answered. `;
}

function compact(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
