import type { LanguageModelUsage } from 'ai';
import type { CapabilityProvenance } from '../capabilities/scope.js';
import type { TraceError, TraceStatus } from '../trace/trace-node.js';
import type { TraceFailures } from '../trace/trace-failures.js';
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

/** The `type` of every event `handle.events` yields. */
export type RunEventType = RunEvent['type'];

/**
 * Where an event stands in the run's trace, and when it happened. Every {@link RunLogEvent}
 * has these; they are what the trace is built from (see `applyEvent`).
 */
export interface EventIdentity {
  /**
   * The trace node the event concerns: the run, agent, step, model call, tool call or
   * `<Catch>` attempt (a delta's node is its model call; an approval's, its tool call).
   */
  nodeId: string;
  /**
   * That node's parent; absent for the outermost run's node. A child run's parent is the
   * composite tool call that started it.
   */
  parentId?: string;
  /** When it happened, in ms since the epoch. */
  at: number;
}

/**
 * The events only a run's log has (not `handle.events`): model calls, denied calls,
 * `<Catch>` attempts and reasoning.
 *
 * - `model-start` / `model-finish`: one call to the model (one turn of a step's tool loop);
 *   at its finish, the model's id as the provider gave it, the call's usage (tokens) and why
 *   it stopped (`stop`, `tool-calls`, `length`...).
 * - `tool-denied`: a tool call a person (or a policy) refused; it never ran.
 * - `catch-start` / `catch-finish`: one attempt of a `<Catch>` (1-based), or its fallback.
 * - `reasoning-delta`: a piece of the model's reasoning, as it streams.
 */
export type RunLogOnlyEvent =
  | {
      type: 'model-start';
      runId: string;
      step: string;
      /** The provider's id (`openai.responses`), when the model gives one. */
      provider?: string;
      /** The model id asked for (the answer's own id comes with `model-finish`). */
      model?: string;
    }
  | {
      type: 'model-finish';
      runId: string;
      step: string;
      model: string;
      usage: LanguageModelUsage;
      finishReason: string;
    }
  | { type: 'tool-denied'; runId: string; step: string; toolCallId: string; tool: string }
  | { type: 'catch-start'; runId: string; attempt: number | 'fallback' }
  | {
      type: 'catch-finish';
      runId: string;
      attempt: number | 'fallback';
      status: TraceStatus;
      error?: TraceError;
    }
  | { type: 'reasoning-delta'; runId: string; step: string; delta: string };

/**
 * What a run's log adds to an event of `handle.events`, besides its identity: what the
 * trace needs and the event alone did not say.
 *
 * - `run-finish`: `failures` (see `TraceNode.failures`); `abandoned` when the run settled
 *   without work that ignored its abort (`toolCallIds`: the executions that did not stop;
 *   `error`: what their nodes record).
 * - `agent-start`: the agent's `model`.
 * - `agent-finish` / `step-finish`: the `error` when it failed; `unstarted` when it failed
 *   before its start event (its capabilities or its prompt); for a step, the `messages` it
 *   added to the conversation and, when it failed, the usage of each model call
 *   (`modelUsage`) paid for before.
 * - `tool-error`: the call's `status` (`aborted` when the run was).
 * - `approval-withdraw`: `unasked` when nobody was asked: the step's `stopWhen` ended it first.
 */
interface LogFields {
  'run-finish': {
    failures?: TraceFailures;
    abandoned?: { error: TraceError; toolCallIds: string[] };
  };
  'agent-start': { model: string };
  'agent-finish': { error?: TraceError; unstarted?: true };
  'step-finish': {
    error?: TraceError;
    unstarted?: true;
    messages?: unknown[];
    modelUsage?: LanguageModelUsage[];
  };
  'tool-error': { status: TraceStatus };
  'approval-withdraw': { unasked?: true };
}

type WithLogFields<E extends RunEvent> = E extends { type: infer T }
  ? T extends keyof LogFields
    ? E & LogFields[T]
    : E
  : never;

/**
 * One event of a run's log, as consumers ({@link RunConsumer}) and the trace reducer get
 * it: an event of `handle.events` with the fields of {@link LogFields}, or one of the
 * {@link RunLogOnlyEvent}s; each with its {@link EventIdentity} (`nodeId`, `parentId`, `at`).
 * Plain JSON. The trace of a run is the reduction of its log (see `applyEvent`).
 *
 * @example
 * ```ts
 * const consumer: RunConsumer = {
 *   event: (event) => {
 *     if (event.type === 'model-finish') console.log(event.model, event.usage.totalTokens);
 *   },
 * };
 * ```
 */
export type RunLogEvent = (WithLogFields<RunEvent> | RunLogOnlyEvent) & EventIdentity;

/** The `type` of every log event. */
export type RunLogEventType = RunLogEvent['type'];

/** A log event of one type. */
export type RunLogEventOf<T extends RunLogEventType> = Extract<RunLogEvent, { type: T }>;
