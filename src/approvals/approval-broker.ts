import { RunAbortedError, WorkflowError } from '../errors/june-error.js';
import type { ApprovalDecision, ApprovalPolicy, ApprovalRequest } from './approval-request.js';
import { withReason } from './with-reason.js';
import { unwatchUnanswered, watchUnanswered, type WaitingRun } from './unanswered-at-exit.js';
import { errorMessage } from '../errors/error-message.js';

interface Pending {
  request: ApprovalRequest;
  /** The run (or child run) whose step asked. */
  runId: string;
  resolve: (decision: ApprovalDecision & { automatic: boolean }) => void;
  reject: (error: unknown) => void;
}

/**
 * What the broker tells the run about, so it can emit events and update the trace. `runId`
 * is the run (or child run) whose step asked.
 */
export interface ApprovalListener {
  requested(request: ApprovalRequest, runId: string): void;
  /** `replayed`: the answer came from the run's journal (a resumed or replayed run). */
  answered(
    id: string,
    decision: ApprovalDecision,
    automatic: boolean,
    runId: string,
    replayed?: boolean,
  ): void;
  withdrawn(id: string, reason: string, runId: string): void;
}

/**
 * Holds a run's pending approval requests (of the outermost run and every child run) and
 * matches answers to them. Several requests may be pending at once, answered in any order.
 * Given the run's id, it says on stderr which requests still wait when the process is about
 * to exit with nothing left that could answer them (see {@link watchUnanswered}).
 */
export class ApprovalBroker {
  private readonly pending = new Map<string, Pending>();
  private readonly waiting: WaitingRun | undefined;

  constructor(
    private readonly listener: ApprovalListener,
    private readonly policy?: ApprovalPolicy,
    runId?: string,
  ) {
    const requests = () => this.requests;
    this.waiting =
      runId === undefined
        ? undefined
        : {
            runId,
            get requests() {
              return requests();
            },
          };
  }

  /** The requests waiting for an answer, oldest first. */
  get requests(): ApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  /**
   * Asks for an answer for a step of the run `runId`: the policy first (if any), else whoever
   * holds the run handle. Rejects with {@link RunAbortedError} when `signal` aborts first (the
   * request is withdrawn). With `replayed` (an answer the run's journal recorded) the request
   * is answered at once with it, as automatic and replayed, and never pending.
   */
  request(
    request: ApprovalRequest,
    signal: AbortSignal,
    runId: string,
    replayed?: ApprovalDecision,
  ): Promise<ApprovalDecision & { automatic: boolean }> {
    if (signal.aborted) return Promise.reject(new RunAbortedError(signal.reason));
    if (replayed) {
      const clean: ApprovalDecision = {
        approved: replayed.approved,
        ...withReason(replayed.reason),
      };
      this.listener.answered(request.id, clean, true, runId, true);
      return Promise.resolve({ ...clean, automatic: true });
    }
    const answer = new Promise<ApprovalDecision & { automatic: boolean }>((resolve, reject) => {
      this.pending.set(request.id, { request, runId, resolve, reject });
    });
    if (this.pending.size === 1 && this.waiting) watchUnanswered(this.waiting);
    const onAbort = () => this.withdraw(request.id, signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    this.listener.requested(request, runId);
    if (this.policy) void this.applyPolicy(request);
    return answer.finally(() => signal.removeEventListener('abort', onAbort));
  }

  private async applyPolicy(request: ApprovalRequest): Promise<void> {
    try {
      const answer = await this.policy!(request);
      if (answer === undefined || !this.pending.has(request.id)) return;
      this.settle(request.id, typeof answer === 'boolean' ? { approved: answer } : answer, true);
    } catch (error) {
      const entry = this.pending.get(request.id);
      this.remove(request.id);
      entry?.reject(
        new WorkflowError(
          'approval-policy-failed',
          `june: the onApproval policy threw for the "${request.tool}" call in step "${request.step}": ${errorMessage(error)}`,
          { cause: error },
        ),
      );
    }
  }

  /**
   * Answers the request `id`.
   * @throws {WorkflowError} `approval-unknown` when no request with that id is pending (nothing changes).
   */
  answer(id: string, decision: ApprovalDecision): void {
    if (!this.pending.has(id)) {
      const ids = [...this.pending.keys()];
      throw new WorkflowError(
        'approval-unknown',
        `june: no approval request "${id}" is pending; ${ids.length ? `pending: ${ids.map((i) => `"${i}"`).join(', ')}` : 'none is pending'}. Use an id from an approval-request event or handle.pendingApprovals.`,
      );
    }
    this.settle(id, decision, false);
  }

  /**
   * Answers the request `id` if it is still pending (an answer that came from outside the
   * process, through the run's durable engine); does nothing once it was answered or withdrawn.
   */
  answerIfPending(id: string, decision: ApprovalDecision): void {
    if (this.pending.has(id)) this.settle(id, decision, false);
  }

  private settle(id: string, decision: ApprovalDecision, automatic: boolean): void {
    const entry = this.pending.get(id)!;
    this.remove(id);
    const clean: ApprovalDecision = {
      approved: decision.approved,
      ...withReason(decision.reason),
    };
    this.listener.answered(id, clean, automatic, entry.runId);
    entry.resolve({ ...clean, automatic });
  }

  private withdraw(id: string, reason: unknown): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.remove(id);
    this.listener.withdrawn(id, 'the run was aborted', entry.runId);
    entry.reject(new RunAbortedError(reason));
  }

  private remove(id: string): void {
    this.pending.delete(id);
    if (this.pending.size === 0 && this.waiting) unwatchUnanswered(this.waiting);
  }
}
