import type { ApprovalRequest } from '../approvals/approval-request.js';
import type { RunLogEvent } from '../events/run-event.js';
import { UIToolCalls, type UIToolCall } from './ui-tool-calls.js';

interface RunState {
  /** The step running now (a run evaluates one step at a time). */
  step?: string;
  /** Its tool calls that have not returned; `true` while one waits for an answer. */
  calls: Map<UIToolCall, boolean>;
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
 * of a turn arrives, its call counts as running.
 */
export class RunWaits {
  readonly #calls = new UIToolCalls();
  readonly #runs = new Map<string, RunState>();
  readonly #byApproval = new Map<string, UIToolCall>();
  #root: string | undefined;

  /**
   * @param willAnswer - requests that are answered without a person (a server answers them
   *   from the request that resumed the run): they do not count as waiting.
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
        run?.calls.set(this.#calls.called(event), false);
        break;
      case 'tool-result':
      case 'tool-error':
        this.#settle(run, this.#calls.find(event.runId, event.toolCallId));
        break;
      case 'approval-request': {
        const call = this.#calls.latest(event.runId, event.request.toolCallId);
        if (call && run?.calls.has(call) && !this.willAnswer(event.request)) {
          run.calls.set(call, true);
          this.#byApproval.set(event.request.id, call);
        }
        break;
      }
      case 'approval-response': {
        const call = this.#byApproval.get(event.id);
        if (!call) break;
        if (event.approved) run?.calls.set(call, false);
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
    for (const [call, asking] of run.calls) {
      if (asking) continue;
      if (call.child === undefined || !this.#waits(call.child)) return false;
    }
    return true;
  }

  #settle(run: RunState | undefined, call: UIToolCall | undefined): void {
    if (!call) return;
    run?.calls.delete(call);
    this.#calls.settled(call);
  }
}
