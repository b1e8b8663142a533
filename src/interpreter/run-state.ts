import type { LanguageModel, LanguageModelUsage } from 'ai';
import { ApprovalBroker } from '../approvals/approval-broker.js';
import type { ApprovalPolicy } from '../approvals/approval-request.js';
import type { ResolvedScope } from '../capabilities/scope.js';
import type { JuneElement, JuneNode } from '../elements/element.js';
import { EventStream, type EventJoining } from '../events/event-stream.js';
import { ToolSourcePool } from '../resources/tool-source-pool.js';
import type { RunLogEvent } from '../events/run-event.js';
import type { RunConsumer } from '../events/run-consumer.js';
import { emptyUsage } from '../models/usage.js';
import type { DurableCalls } from '../engine/durable-calls.js';
import { applyEvent } from '../events/apply-event.js';
import { liveTrace } from '../events/live-trace.js';
import type { NodePlace } from './node-place.js';
import type { ToolNodes } from './tool-nodes.js';
import { configuredSecrets } from '../redaction/configured-secrets.js';
import type { Redactor } from '../redaction/redactor.js';

/** The most streamed text held back while redacting (a word longer than this is let through), in characters. */
const MAX_HELD_TEXT = 4096;

/** How the interpreter walks a tree: run it, inspect it (no model), or check it statically. */
export type EvaluationMode = 'run' | 'inspect' | 'validate';

/** What a {@link RunRoot} starts from. */
export interface RunRootOptions {
  /** The outermost run's id (`'validate'` / `'inspect'` for the checks that never run). */
  runId: string;
  mode: EvaluationMode;
  /** The model every step uses instead of its own (`RunOptions.model`). */
  model?: LanguageModel;
  /** Answers approval requests (`RunOptions.onApproval`); none: requests wait for `handle.approve`. */
  onApproval?: ApprovalPolicy;
  /** Components already rendered by the static check, reused once by the run. */
  rendered?: Map<JuneElement, JuneNode>;
}

/**
 * State shared by the outermost run and all its child runs: one event stream, one approval
 * channel, one abort, the tool executions still in flight.
 */
export class RunRoot {
  /** The run's log: every event, as consumers get it (`handle.events` shows part of it). */
  readonly events = new EventStream<RunLogEvent>(joinTextDeltas);
  /** Consumers following the run's events (`RunOptions.consumers`). */
  consumers: readonly RunConsumer[] = [];
  readonly controller = new AbortController();
  readonly broker: ApprovalBroker;
  readonly inflight = new Set<Promise<unknown>>();
  /** The tool calls among `inflight` (to name the ones an abort could not stop). */
  readonly calls = new Map<Promise<unknown>, TrackedCall>();
  /** Tool sources this run connected to, closed when the run ends. */
  readonly sources: ToolSourcePool;
  /** The run's trace, built from its events (in `run` mode; `inspect()` and the static check build none). */
  readonly trace = liveTrace();
  /** The tool call node of each approval request, by approval id, for the approval's events. */
  readonly approvalNodes = new Map<string, NodePlace>();
  /** Every agent rendered, in order (for `inspect()`). */
  readonly agents: AgentFrame[] = [];
  /**
   * What user components rendered during the static check, reused (once) by the run so each
   * component renders once. Keyed by element identity.
   */
  readonly rendered: Map<JuneElement, JuneNode>;
  /** Async user components rendering now, as `<Name> at file:line` (named when an abort cannot stop them). */
  rendering = new Set<{ component: string }>();
  /**
   * The run's durable engine, with the bookkeeping every engine shares, when the run has one
   * (`RunOptions.engine`: a journal, a resume, a replay, DBOS...).
   */
  durable?: DurableCalls;
  /**
   * The events emitted while the run's engine was being made (its `run-start`), handed to the
   * engine once it is: an engine publishes the whole log. Undefined when no engine comes.
   */
  #beforeEngine: RunLogEvent[] | undefined;
  /** What the run keeps out of its events, trace snapshots, journal and errors (the `redact` option and configured credentials). */
  redactor: Redactor = configuredSecrets;
  /**
   * `inspect()` with `compositeInputs`: the sample inputs by tool name (or path), and the
   * composite tools found so far whose body inspect() renders for one.
   */
  compositeInputs?: Record<string, unknown>;
  readonly compositeBodies: CompositeBody[] = [];
  /** Whether model calls stream (`streamText`) or answer whole (`generateText`); see `RunOptions.stream`. */
  stream = true;
  /** When the run was created, ms since the epoch (a trace asked for before its first event starts here). */
  readonly createdAt = Date.now();
  private childCount = 0;
  #nodeCount = 0;
  /** Set once the outermost run's `run-finish` is out: what comes later (work abandoned after an abort) is dropped. */
  #ended = false;

  readonly runId: string;
  readonly mode: EvaluationMode;
  readonly modelOverride: LanguageModel | undefined;

  constructor(options: RunRootOptions) {
    this.runId = options.runId;
    this.mode = options.mode;
    this.modelOverride = options.model;
    this.rendered = options.rendered ?? new Map();
    this.sources = new ToolSourcePool(this.controller.signal);
    this.broker = new ApprovalBroker(
      {
        requested: (request, runId) =>
          this.emit({
            type: 'approval-request',
            runId,
            request,
            ...this.#approvalPlace(request.id),
          }),
        answered: (id, decision, automatic, runId, replayed) =>
          this.emit({
            type: 'approval-response',
            runId,
            id,
            approved: decision.approved,
            ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
            ...(replayed ? { replayed } : {}),
            automatic,
            ...this.#approvalPlace(id),
          }),
        withdrawn: (id, reason, runId) =>
          this.emit({ type: 'approval-withdraw', runId, id, reason, ...this.#approvalPlace(id) }),
      },
      options.onApproval,
      options.mode === 'run' ? options.runId : undefined,
    );
  }

  /** A new trace node id, unique within the run (child runs included): `n1`, `n2`... */
  nodeId(): string {
    return `n${++this.#nodeCount}`;
  }

  #approvalPlace(id: string): NodePlace {
    return this.approvalNodes.get(id) ?? { nodeId: `approval:${id}` };
  }

  /**
   * Sends an event to the run's log (its time, `at`, is now unless given), redacted, then to
   * each consumer. With something to redact, streamed text is held back from its last
   * whitespace on (until more text or another event comes), so a secret split across two
   * deltas is still found.
   */
  emit(input: EventInput): void {
    // every caller passes a new object literal, so it becomes the event as it is
    if (input.at === undefined) input.at = Date.now();
    const event = input as RunLogEvent;
    if (this.redactor.empty) return this.#publish(event);
    if (event.type === 'text-delta' || event.type === 'reasoning-delta') return this.#text(event);
    this.#flushText();
    this.#publish(this.redactor.value(event));
  }

  #publish(event: RunLogEvent): void {
    if (this.#ended) return;
    if (this.mode === 'run') applyEvent(this.trace, event);
    if (event.type === 'run-finish' && event.parentId === undefined) this.#ended = true;
    for (const consumer of this.consumers) {
      try {
        consumer.event(event);
      } catch (error) {
        process.emitWarning(`june: a run consumer threw on "${event.type}": ${String(error)}`);
      }
    }
    this.events.push(event);
    if (this.durable) this.durable.engine.publish?.(event);
    else this.#beforeEngine?.push(event);
  }

  /** Keeps the events emitted from now on until {@link attachEngine} hands them to the engine. */
  expectEngine(): void {
    this.#beforeEngine = [];
  }

  /** The run's durable engine is made: it is published the events it missed, then every event. */
  attachEngine(durable: DurableCalls): void {
    this.durable = durable;
    for (const event of this.#beforeEngine ?? []) durable.engine.publish?.(event);
    this.#beforeEngine = undefined;
  }

  #heldText = new Map<string, TextEvent>();

  #text(event: TextEvent): void {
    const key = `${event.type} ${event.nodeId}`;
    const text = (this.#heldText.get(key)?.delta ?? '') + event.delta;
    const cut = text.length > MAX_HELD_TEXT ? text.length : text.search(/\s\S*$/) + 1;
    if (cut < text.length) this.#heldText.set(key, { ...event, delta: text.slice(cut) });
    else this.#heldText.delete(key);
    if (cut > 0) this.#publish({ ...event, delta: this.redactor.text(text.slice(0, cut)) });
  }

  #flushText(): void {
    for (const held of this.#heldText.values())
      this.#publish({ ...held, delta: this.redactor.text(held.delta) });
    this.#heldText.clear();
  }

  /**
   * Runs `work` for the trace node `nodeId` (a step's model calls) inside what each consumer
   * puts around it (`RunConsumer.within`: an exporter's active span); as it is without one.
   */
  within<T>(nodeId: string, work: () => T): T {
    let wrapped = work;
    for (const consumer of this.consumers) {
      const inner = wrapped;
      if (consumer.within) wrapped = () => consumer.within!(nodeId, inner);
    }
    return wrapped();
  }

  /**
   * Keeps a tool execution's promise until it settles, so an abort can wait for cleanup:
   * here, and in `frame.inflight` for the run (outermost or child) whose agent runs the tool.
   */
  track<T>(promise: Promise<T>, frame?: RunFrame, call?: TrackedCall): Promise<T> {
    this.inflight.add(promise);
    frame?.inflight.add(promise);
    if (call) this.calls.set(promise, call);
    const forget = () => {
      this.inflight.delete(promise);
      frame?.inflight.delete(promise);
      this.calls.delete(promise);
    };
    promise.then(forget, forget);
    return promise;
  }

  /** A fresh id for a child run: `<root runId>.<n>`. */
  childRunId(): string {
    return `${this.runId}.${++this.childCount}`;
  }
}

/** A piece of streamed text or reasoning. */
type TextEvent = Extract<RunLogEvent, { type: 'text-delta' | 'reasoning-delta' }>;

/** What {@link RunRoot.emit} takes: a log event, its time `at` optional (now). */
export type EventInput = RunLogEvent extends infer E
  ? E extends RunLogEvent
    ? Omit<E, 'at'> & { at?: number }
    : never
  : never;

/**
 * Keeps a late reader's history short: consecutive deltas of one model call (text, or
 * reasoning) are replayed as one delta holding their text.
 */
const joinTextDeltas: EventJoining<RunLogEvent> = {
  canJoin: (first, next) =>
    (first.type === 'text-delta' || first.type === 'reasoning-delta') &&
    next.type === first.type &&
    first.nodeId === next.nodeId &&
    first.step === next.step &&
    first.runId === next.runId,
  join: (events) => ({
    ...(events[0] as TextEvent),
    delta: events.map((e) => (e as TextEvent).delta).join(''),
  }),
};

/** A tool execution in flight: the tool's name and the call's id. */
export interface TrackedCall {
  tool: string;
  toolCallId: string | undefined;
}

/** One run: the outermost one, or a child run started by a composite tool call. */
export interface RunFrame {
  root: RunRoot;
  runId: string;
  /** Composite tool names from the outermost run down to this one. */
  prefix: string[];
  /** The ids of those composite tool calls, in the same order (the journal tells parallel calls apart by them). */
  calls: string[];
  signal: AbortSignal;
  steps: Record<string, unknown>;
  stepElements: Map<string, JuneElement>;
  usage: LanguageModelUsage;
  /** The run's trace node. */
  nodeId: string;
  /** A child run's parent node: the composite tool call that started it. */
  parentId?: string;
  /**
   * Tool executions of this run's agents still in flight (a composite call among them stands
   * for its own child run's), so a child run that is aborted can wait for its cleanup.
   */
  inflight: Set<Promise<unknown>>;
  /** The tool call nodes of the step running now (a run runs one step at a time). */
  toolNodes?: ToolNodes;
  /** For a child run: the calling agent's scope, which `<Inherit>` reads. */
  callerScope?: ResolvedScope;
}

/** One rendered `<Agent>`: its resolved scope, settings and conversation. */
export interface AgentFrame {
  element: JuneElement;
  name: string;
  /** Names of the enclosing agents and this one, joined by ` > `. */
  path: string;
  notation: string;
  scope: ResolvedScope;
  /** The scope's tools, instrumented for this run (cleanup tracking). */
  tools: ResolvedScope['tools'];
  messages: import('ai').ModelMessage[];
  /** The agent's trace node. */
  nodeId: string;
  /** Tool sources declared but not connected (outside a run: `inspect()` does not connect). */
  waiting?: string[];
}

/** Everything evaluation of one node needs. */
export interface EvalContext {
  run: RunFrame;
  agent?: AgentFrame;
  /** The trace node the evaluated nodes go under. */
  parentId: string;
  /** The user component whose output is being evaluated, for error messages. */
  renderedBy?: string;
}

/** A composite tool found by `inspect()`, whose body it renders for a sample input. */
export interface CompositeBody {
  /** The tool's name as its calling model sees it. */
  name: string;
  /** Step-path prefix of its child run: the names of the composite tools leading to it. */
  prefix: string[];
  render: (input: any) => JuneNode | Promise<JuneNode>;
  /** The calling agent's scope, which `<Inherit>` in the body reads. */
  caller: () => ResolvedScope;
}

export type { NodePlace } from './node-place.js';

/** What {@link createRunFrame} needs. */
export interface RunFrameOptions {
  root: RunRoot;
  runId: string;
  /** Composite tool names from the outermost run down to this one. */
  prefix: string[];
  signal: AbortSignal;
  /** The calling agent's scope, for a child run. */
  callerScope?: ResolvedScope;
  /** The composite tool call node that starts a child run. */
  parentId?: string;
}

/** A new run frame, with a new node id. */
export function createRunFrame(options: RunFrameOptions): RunFrame {
  const { root, runId, prefix, signal, callerScope, parentId } = options;
  return {
    root,
    runId,
    prefix,
    calls: [],
    signal,
    steps: {},
    stepElements: new Map(),
    usage: emptyUsage(),
    nodeId: root.nodeId(),
    ...(parentId !== undefined ? { parentId } : {}),
    inflight: new Set(),
    ...(callerScope ? { callerScope } : {}),
  };
}
