import type { AnswerCheck } from './answer-check.js';
import type { ApprovalDecision, AskedQuestion } from './approval-request.js';

/**
 * A request for a person's answer that comes up while a tool runs, not before: an MCP
 * server asking its caller through elicitation (a served June workflow's approval, a
 * question). The run asks it as one of its own approval requests, under the running call:
 * - `name`: the request's name within the call, the same on every resume (a served
 *   workflow's request key without its run id, `ship#0.0`); the run's request key is the
 *   call's key, `/`, and this name;
 * - `tool` and `input`: what to approve (the remote tool and the input it would run with);
 * - `question`: set when the request asks for a value rather than a yes or no (then it is
 *   a question of the run: answered with an `output`, or denied);
 * - `check`: what an edited input or an answer must fit, checked while it is given (a
 *   misfit is refused and the request goes on waiting), as for a tool's own approval.
 */
export interface CallRequest {
  name: string;
  tool: string;
  input: unknown;
  question?: AskedQuestion;
  check?: AnswerCheck;
}

/**
 * What a run hands a tool's execution so the tool can ask for answers while it runs: the
 * call's key (`ToolCallContext.key`: the same on every resume of a run with a journal; an
 * MCP client sends it to the server as the call's idempotency key) and `ask`, which asks the
 * run's inbox (the terminal, Studio, the handle, every approval source) and resolves with
 * the answer. With a durable engine the request and its answer are recorded under the
 * call, so a resumed run gives a recorded answer again without asking. `ask` rejects with
 * `run-aborted` when the run aborts or `signal` aborts first (the request is withdrawn).
 */
export interface CallRequests {
  key: string;
  ask(request: CallRequest, signal?: AbortSignal): Promise<ApprovalDecision>;
}

/** Where a run puts a call's {@link CallRequests} in the options its tool's `execute` gets. */
export const callRequestsKey: unique symbol = Symbol.for('june.call-requests') as never;

/**
 * The {@link CallRequests} of the call a tool's `execute` runs for, from the options the
 * run gave it; undefined outside a run (a tool called by hand).
 *
 * @example
 * ```ts
 * execute: async (input, options) => {
 *   const answer = await callRequestsOf(options)?.ask({ name: 'confirm', tool: 'pay', input });
 * }
 * ```
 */
export function callRequestsOf(options: unknown): CallRequests | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  return (options as { [callRequestsKey]?: CallRequests })[callRequestsKey];
}

/**
 * The reason to abort a {@link CallRequests.ask} signal with when the request stops waiting
 * for something other than the run's abort (the call that asked ended): the run's events
 * and sources are told `reason` as why it was withdrawn.
 */
export class RequestWithdrawal {
  constructor(readonly reason: string) {}
}
