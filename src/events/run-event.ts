import type { LanguageModelUsage } from 'ai';
import type { CapabilityProvenance } from '../capabilities/scope.js';
import type {
  PromptFile,
  TraceCompaction,
  TraceBudget,
  TraceError,
  TraceForkedFrom,
  TraceGuardDecision,
  TraceStatus,
} from '../trace/trace-node.js';
import type { TraceFailures } from '../trace/trace-failures.js';
import type { ApprovalRequest, AskedQuestion } from '../approvals/approval-request.js';
import type { ModelPrice } from '../models/price.js';

/**
 * What each kind of run event holds besides its `type` and its {@link EventIdentity}, by
 * kind. Names are noun then verb. `step` is the step path (`research:findings` inside a
 * composite tool `research`); `runId` the run (or child run) the event belongs to. Usage
 * counts are in tokens. The list of kinds at run time, with what each concerns, is
 * `runEventKinds` (`run-event-kinds.ts`), checked against this one by the compiler.
 */
export interface RunEventFields {
  /** A run (or a child run, with `parentToolCallId`: the composite call that started it) begins. */
  'run-start': {
    runId: string;
    parentToolCallId?: string;
    workflow?: string;
    /** The outermost run of a fork: where it was forked from. */
    forkedFrom?: TraceForkedFrom;
  };
  /**
   * A run ends: its final status (`succeeded`, `failed`, `aborted`), its usage and, when it
   * did not succeed, the error; `failures`: what failed inside it without failing it (see
   * `TraceNode.failures`); `abandoned` when it settled without work that ignored its abort
   * (`toolCallIds`: the executions that did not stop; `error`: what their nodes record).
   */
  'run-finish': {
    runId: string;
    status: TraceStatus;
    usage: LanguageModelUsage;
    error?: TraceError;
    failures?: TraceFailures;
    abandoned?: { error: TraceError; toolCallIds: string[] };
  };
  /**
   * An `<Agent>` resolved its capabilities: `tools` are the names the model sees,
   * `capabilities` their provenance (absent for a `tools`-prop-only agent), `model` its model.
   */
  'agent-start': {
    runId: string;
    agent: string;
    model: string;
    capabilities?: CapabilityProvenance[];
    tools: string[];
  };
  /**
   * An agent ended; `error` when it failed; `unstarted` when it failed before its start
   * (resolving its capabilities), so no `agent-start` came.
   */
  'agent-finish': {
    runId: string;
    agent: string;
    status: TraceStatus;
    error?: TraceError;
    unstarted?: true;
  };
  /**
   * An agent's conversation was compacted before the step `step`: its `replaced` oldest
   * messages became one summary message (`summary`, written `by` its model or the agent's
   * function, in `calls` calls, with their `usage` and, when priced, `costUsd`); `messages` and `tokens` (estimated) are
   * the conversation's size, the step's prompt counted, before and after; `inStep` when it
   * compacted the request of a later model call of the step (its tool loop), not the
   * conversation the step started from. Its node is the agent's.
   */
  compaction: { runId: string; agent: string } & Omit<TraceCompaction, 'at'>;
  /** A `<Step>` starts, with its prompt. */
  'step-start': {
    runId: string;
    step: string;
    agent: string;
    /** The text of the step's prompt (its text parts, joined by new lines, when it has parts). */
    prompt: string;
    /** The files of a prompt given as parts, in order (absent when it has none). */
    files?: PromptFile[];
  };
  /**
   * A step ended: its status, result and usage; the `messages` it added to the
   * conversation; `error` when it failed, with the usage of each model call paid for before
   * (`modelUsage`) and, when any had a price, each one's cost in USD (`modelCostUsd`, `null`
   * for a call without a price); `unstarted` when it failed before its start (its prompt
   * function).
   */
  'step-finish': {
    runId: string;
    step: string;
    status: TraceStatus;
    result?: unknown;
    usage: LanguageModelUsage;
    error?: TraceError;
    unstarted?: true;
    messages?: unknown[];
    modelUsage?: LanguageModelUsage[];
    modelCostUsd?: Array<number | null>;
  };
  /**
   * One call to the model (one turn of a step's tool loop) starts: `provider` is the AI SDK
   * provider id (`openai.responses`) and `model` the model id asked for, when the model gives
   * them (the answer's own id comes with `model-finish`; runs recorded by June 0.1 have neither).
   * `record`: with a durable engine, the call's record name, as `june fork` lists it
   * (`model plan#0.0/research:summarize #0`).
   */
  'model-start': {
    runId: string;
    step: string;
    provider?: string;
    model?: string;
    record?: string;
  };
  /**
   * A model call ended: the model's id as the provider gave it, its usage, why it stopped
   * (`stop`, `tool-calls`, `length`...). `replayed` when the call was not made in this process
   * but answered from the run's record (a resume or a replay): its usage still counts for the
   * run, but no provider was paid for it again. `price`: what its tokens cost (from the
   * catalog or the run's `prices`; a replayed call's as it was recorded); `costUsd`: the
   * call's cost in USD, absent when its model has no price (unknown, not 0).
   */
  'model-finish': {
    runId: string;
    step: string;
    model: string;
    usage: LanguageModelUsage;
    finishReason: string;
    replayed?: true;
    price?: ModelPrice;
    costUsd?: number;
  };
  /** A piece of the model's text, as it streams. */
  'text-delta': { runId: string; step: string; delta: string };
  /** A piece of the model's reasoning, as it streams. */
  'reasoning-delta': { runId: string; step: string; delta: string };
  /** The model called a tool. */
  'tool-call': {
    runId: string;
    step: string;
    toolCallId: string;
    tool: string;
    input: unknown;
    /**
     * With a durable engine, the execution's record name, as `june fork` lists it
     * (`tool fetch plan#0.0/summarize#0.0`); its approval's is `approval <tool> <call id>`.
     */
    record?: string;
  };
  /** A tool returned. */
  'tool-result': {
    runId: string;
    step: string;
    toolCallId: string;
    tool: string;
    output: unknown;
  };
  /** A tool threw; `status` is `aborted` when the run was. */
  'tool-error': {
    runId: string;
    step: string;
    toolCallId: string;
    tool: string;
    error: TraceError;
    status: TraceStatus;
  };
  /** A tool call a person (or a policy) refused; it never ran. */
  'tool-denied': { runId: string; step: string; toolCallId: string; tool: string };
  /**
   * A `<Guard>` decided (see `TraceGuardDecision`): at a tool call node about its input
   * (`tool`, `toolCallId`), at a step node about its output or its prompt.
   */
  'guard-decision': {
    runId: string;
    step: string;
    tool?: string;
    toolCallId?: string;
  } & TraceGuardDecision;
  /**
   * A `<Budget>` over the step reached its cap before a model call (see `TraceBudget`): it
   * asks for more, more was allowed or denied, or the run fails.
   */
  budget: { runId: string; step: string } & TraceBudget;
  /**
   * A tool call waits for an answer. `record`: with a durable engine, the record name of the
   * call's execution, as its `tool-call` carries it (a denied call never starts, so its node
   * may be opened by this event).
   */
  'approval-request': { runId: string; request: ApprovalRequest; record?: string };
  /**
   * A request was answered: `automatic` when an `onApproval` policy did, `replayed` when the
   * run's journal held the answer. `input`: approved with this edited input (the call runs
   * with it; the request's `input` is the model's). `output`: answered instead of the tool
   * (`approved` is false; the model reads it as the tool's result).
   */
  'approval-response': {
    runId: string;
    id: string;
    approved: boolean;
    reason?: string;
    input?: unknown;
    output?: unknown;
    automatic: boolean;
    replayed?: boolean;
    /**
     * On a replayed answer to a question (no `approval-request` came before it): what the
     * question asked, as `ApprovalRequest.question`.
     */
    question?: AskedQuestion;
    /** On a replayed answer (no `approval-request` came before it): the call's key, as `ApprovalRequest.key`. */
    key?: string;
    /**
     * Through which way the answer came (`terminal`, `studio`, `web`, `database`, `policy`,
     * `handle`, a source's own name; `journal` for a replayed answer recorded before
     * answers kept it); who answered, as the source named them; and when (ISO 8601: when
     * the person answered, which may be before the run read the answer).
     */
    source?: string;
    answeredBy?: string;
    answeredAt?: string;
  };
  /** A request was withdrawn (the run was aborted first); `unasked` when nobody was asked: the step's `stopWhen` ended it first. */
  'approval-withdraw': { runId: string; id: string; reason: string; unasked?: true };
  /** One attempt of a `<Catch>` (1-based), or its fallback, starts. */
  'catch-start': { runId: string; attempt: number | 'fallback' };
  /** An attempt of a `<Catch>` ended. */
  'catch-finish': {
    runId: string;
    attempt: number | 'fallback';
    status: TraceStatus;
    error?: TraceError;
  };
  /**
   * A `<Catch>` caught a failure of attempt `attempt` (1-based); `willRetry` says whether it
   * renders again; `fallback` that it gave up and renders its fallback instead. A failed
   * run's own error is on `run-finish`.
   */
  error: {
    runId: string;
    error: TraceError;
    attempt: number;
    willRetry: boolean;
    fallback?: true;
  };
  /** A `<Catch>` renders its children again: attempt `attempt` of at most `retries + 1`. */
  retry: { runId: string; attempt: number; retries: number };
  /**
   * A `<Parallel>` starts its branches: `branches` are their keys in declaration order (a
   * child's `key`, else its index), `limit` how many run at once (absent: all), `mode` what
   * a failure does.
   */
  'parallel-start': {
    runId: string;
    branches: string[];
    limit?: number;
    mode: 'fail-fast' | 'settle-all';
  };
  /** A `<Parallel>` joined: every branch ended (`failed` names the branches that failed). */
  'parallel-finish': { runId: string; status: TraceStatus; error?: TraceError; failed?: string[] };
  /** One branch of a `<Parallel>` starts: its key and its 0-based position among the branches. */
  'branch-start': { runId: string; branch: string; index: number };
  /** One branch of a `<Parallel>` ended. */
  'branch-finish': { runId: string; branch: string; status: TraceStatus; error?: TraceError };
}

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

/** The `type` of every run event. */
export type RunLogEventType = keyof RunEventFields;

/**
 * One event of a run, as `handle.events` yields it, consumers ({@link RunConsumer}) get it
 * and the trace reducer reads it: its `type`, the fields of that kind
 * ({@link RunEventFields}) and its {@link EventIdentity} (`nodeId`, `parentId`, `at`).
 * Events of child runs (composite tools, defined agents) are in the outermost run's log
 * with their own `runId`. Plain JSON. The trace of a run is the reduction of its events
 * (see `applyEvent`).
 *
 * @example
 * ```tsx
 * for await (const event of run(<Workflow />).events) {
 *   if (event.type === 'text-delta') process.stdout.write(event.delta);
 *   if (event.type === 'model-finish') console.log(event.model, event.usage.totalTokens);
 * }
 * ```
 */
export type RunLogEvent = {
  [T in RunLogEventType]: { type: T } & RunEventFields[T] & EventIdentity;
}[RunLogEventType];

/** A run event of one type. */
export type RunLogEventOf<T extends RunLogEventType> = Extract<RunLogEvent, { type: T }>;

/**
 * The run's events under their old name. `handle.events` yields {@link RunLogEvent}s now:
 * every kind, each with its trace node and time.
 * @deprecated use {@link RunLogEvent}.
 */
export type RunEvent = RunLogEvent;

/**
 * The kinds of run events under their old name.
 * @deprecated use {@link RunLogEventType}.
 */
export type RunEventType = RunLogEventType;
