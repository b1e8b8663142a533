import type { LanguageModelUsage } from 'ai';
import type { CapabilityProvenance } from '../capabilities/scope.js';
import type { TraceError, TraceStatus } from '../trace/trace-node.js';
import type { ApprovalRequest } from '../approvals/approval-request.js';

/**
 * The events of a run, in order. Names are noun then verb. `step` is the step path
 * (`research:findings` inside a composite tool `research`). Events from child runs (composite
 * tools, defined agents) flow into the outermost run's stream, with their own `runId`.
 * Every event is plain JSON; usage counts are in tokens.
 *
 * - `run-start` / `run-finish`: a run (or child run, with `parentToolCallId`) begins and ends;
 *   `run-finish` has the final status (`succeeded`, `failed`, `aborted`), the run's usage and,
 *   when it did not succeed, the error.
 * - `agent-start` / `agent-finish`: an `<Agent>` resolved its capabilities (`tools` are the
 *   names the model sees; `capabilities` their provenance, absent for a `tools`-prop-only
 *   agent) and ended. A start always has a finish.
 * - `step-start` / `step-finish`: a `<Step>` with its prompt; its status, result and usage.
 * - `text-delta`: a piece of the model's text, as it streams.
 * - `tool-call` / `tool-result` / `tool-error`: the model called a tool; it returned or threw.
 * - `approval-request` / `approval-response` / `approval-withdraw`: a call waits for an
 *   answer; it was answered (`automatic` when an `onApproval` policy did, `replayed` when the
 *   run's journal held the answer); the run was aborted first.
 * - `error` / `retry`: a `<Catch>` caught a failure, and renders its children again; a failed
 *   run's own error is on `run-finish`.
 *
 * @example
 * ```tsx
 * for await (const event of run(<Workflow />).events) {
 *   if (event.type === 'text-delta') process.stdout.write(event.delta);
 *   if (event.type === 'approval-request') console.log(`${event.request.tool} waits for approval`);
 * }
 * ```
 */
export type RunEvent =
  | { type: 'run-start'; runId: string; parentToolCallId?: string; workflow?: string }
  | {
      type: 'run-finish';
      runId: string;
      status: TraceStatus;
      usage: LanguageModelUsage;
      error?: TraceError;
    }
  | {
      type: 'agent-start';
      runId: string;
      agent: string;
      capabilities?: CapabilityProvenance[];
      tools: string[];
    }
  | { type: 'agent-finish'; runId: string; agent: string; status: TraceStatus }
  | { type: 'step-start'; runId: string; step: string; agent: string; prompt: string }
  | {
      type: 'step-finish';
      runId: string;
      step: string;
      status: TraceStatus;
      result?: unknown;
      usage: LanguageModelUsage;
    }
  | { type: 'text-delta'; runId: string; step: string; delta: string }
  | {
      type: 'tool-call';
      runId: string;
      step: string;
      toolCallId: string;
      tool: string;
      input: unknown;
    }
  | {
      type: 'tool-result';
      runId: string;
      step: string;
      toolCallId: string;
      tool: string;
      output: unknown;
    }
  | {
      type: 'tool-error';
      runId: string;
      step: string;
      toolCallId: string;
      tool: string;
      error: TraceError;
    }
  | { type: 'approval-request'; runId: string; request: ApprovalRequest }
  | {
      type: 'approval-response';
      runId: string;
      id: string;
      approved: boolean;
      reason?: string;
      automatic: boolean;
      replayed?: boolean;
    }
  | { type: 'approval-withdraw'; runId: string; id: string; reason: string }
  /**
   * A `<Catch>` caught a failure of attempt `attempt` (1-based); `willRetry` says whether it
   * renders again; `fallback` that it gave up and renders its fallback instead.
   */
  | {
      type: 'error';
      runId: string;
      error: TraceError;
      attempt: number;
      willRetry: boolean;
      fallback?: true;
    }
  /** A `<Catch>` renders its children again: attempt `attempt` of at most `retries + 1`. */
  | { type: 'retry'; runId: string; attempt: number; retries: number };

/** The `type` of every event. */
export type RunEventType = RunEvent['type'];
