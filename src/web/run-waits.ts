import type { ApprovalRequest } from '../approvals/approval-request.js';
import type { RunLogEvent } from '../events/run-event.js';
import { UIToolCalls, type UIToolCall } from './ui-tool-calls.js';

/**
 * Where an open tool call of the running step stands:
 * - `running`: it runs, or its request is yet to come, or the caller answers it itself;
 * - `asking`: its approval request waits for a person's answer;
 * - `held`: its request was answered, but the step goes on only once every request of its
 *   model turn is answered (June's `runStep` answers a turn's requests together), so it
 *   neither runs nor asks: it waits with the requests still open.
 */
type CallState = 'running' | 'asking' | 'held';

interface RunState {
  /** The step running now (a run evaluates one step at a time). */
  step?: string;
  /** Its tool calls that have not returned. */
  calls: Map<UIToolCall, CallState>;
}

/**
 * Follows a run's events and tells when the whole run does nothing but wait for approval
 * answers: every step still running has a call waiting for an answer or a composite call
 * whose child run waits the same way, and no other call of it still runs. A server that
 * keeps no state between requests stops the run then (its journal holds the requests) and
 * continues it when the answers come.
 *
 * A step's calls that need approval are asked about once the model's turn ended and the
 * other calls of that turn returned, one request after another, so until the last request
 * of a turn arrives, its call counts as running. A call whose request was answered waits
 * too (it is held) while another call of its step is still open without an answer: the
 * step answers the requests of a turn together, and an approved call runs only once all
 * are answered. Once none is left without an answer, the held calls run.
 */
export class RunWaits {
  readonly #calls = new UIToolCalls();
  readonly #runs = new Map<string, RunState>();
  readonly #byApproval = new Map<string, UIToolCall>();
  #root: string | undefined;

  /**
   * @param willAnswer - requests that are answered without a person (a server answers them
   *   from the request that resumed the run): they do not count as waiting until answered.
   */
  constructor(private readonly willAnswer: (request: ApprovalRequest) => boolean = () => false) {}

  /** Takes the next event of the run. */
  observe(event: RunLogEvent): void {
    const run = this.#runs.get(event.runId);
    switch (event.type) {
      case 'run-start':
        this.#root ??= event.runId;
        this.#runs.set(event.runId, { calls: new Map() });
        if (event.parentToolCallId !== undefined)
          this.#calls.childStarted(event.runId, event.parentToolCallId, event.parentId);
        break;
      case 'run-finish':
        this.#runs.delete(event.runId);
        break;
      case 'step-start':
        if (run) run.step = event.step;
        break;
      case 'step-finish':
        if (run) Object.assign(run, { step: undefined, calls: new Map() });
        break;
      case 'tool-call':
        run?.calls.set(this.#calls.called(event), 'running');
        break;
      case 'tool-result':
      case 'tool-error':
        this.#settle(run, this.#calls.find(event.runId, event.toolCallId));
        break;
      case 'approval-request': {
        const call = this.#calls.latest(event.runId, event.request.toolCallId);
        if (!call || !run?.calls.has(call)) break;
        this.#byApproval.set(event.request.id, call);
        if (!this.willAnswer(event.request)) run.calls.set(call, 'asking');
        break;
      }
      case 'approval-response': {
        const call = this.#byApproval.get(event.id);
        if (!call) break;
        if (event.approved) run?.calls.set(call, 'held');
        else this.#settle(run, call);
        break;
      }
    }
  }

  /** True when the run only waits for approval answers (see the class). */
  get waiting(): boolean {
    return this.#root !== undefined && this.#waits(this.#root);
  }

  #waits(runId: string): boolean {
    const run = this.#runs.get(runId);
    if (!run || run.step === undefined || run.calls.size === 0) return false;
    let open = false;
    for (const [call, state] of run.calls) {
      if (state === 'held') continue;
      open = true;
      if (state === 'asking') continue;
      if (call.child === undefined || !this.#waits(call.child)) return false;
    }
    // every request of the turn answered: the held calls run now
    return open;
  }

  #settle(run: RunState | undefined, call: UIToolCall | undefined): void {
    if (!call) return;
    run?.calls.delete(call);
    this.#calls.settled(call);
  }
}
