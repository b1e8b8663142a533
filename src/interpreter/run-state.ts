import type { LanguageModel, LanguageModelUsage } from 'ai';
import { ApprovalBroker } from '../approvals/approval-broker.js';
import type { ApprovalPolicy } from '../approvals/approval-request.js';
import type { ResolvedScope } from '../capabilities/scope.js';
import type { JuneElement, JuneNode } from '../elements/element.js';
import { EventStream, type EventJoining } from '../events/event-stream.js';
import { ToolSourcePool } from '../resources/tool-source-pool.js';
import type { RunEvent } from '../events/run-event.js';
import { emptyUsage } from '../models/usage.js';
import type { DurableCalls } from '../engine/durable-calls.js';
import type { TraceNode } from '../trace/trace-node.js';
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
  readonly events = new EventStream<RunEvent>(joinTextDeltas);
  readonly controller = new AbortController();
  readonly broker: ApprovalBroker;
  readonly inflight = new Set<Promise<unknown>>();
  /** The tool calls among `inflight` (to name the ones an abort could not stop). */
  readonly calls = new Map<Promise<unknown>, TrackedCall>();
  /** Tool sources this run connected to, closed when the run ends. */
  readonly sources: ToolSourcePool;
  /** Tool nodes by approval id, to record answers in the trace. */
  readonly approvalNodes = new Map<string, TraceNode>();
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
  private childCount = 0;

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
        requested: (request, runId) => {
          const node = this.approvalNodes.get(request.id);
          if (node) node.status = 'waiting';
          this.emit({ type: 'approval-request', runId, request });
        },
        answered: (id, decision, automatic, runId, replayed) => {
          const node = this.approvalNodes.get(id);
          const marks = {
            ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
            ...(replayed ? { replayed } : {}),
          };
          if (node?.approval) {
            node.approval = {
              id,
              status: decision.approved ? 'approved' : 'denied',
              ...marks,
              ...(automatic ? { automatic } : {}),
            };
            node.status = 'running';
          }
          this.emit({
            type: 'approval-response',
            runId,
            id,
            approved: decision.approved,
            ...marks,
            automatic,
          });
        },
        withdrawn: (id, reason, runId) => {
          const node = this.approvalNodes.get(id);
          if (node?.approval) node.approval = { id, status: 'withdrawn' };
          this.emit({ type: 'approval-withdraw', runId, id, reason });
        },
      },
      options.onApproval,
      options.mode === 'run' ? options.runId : undefined,
    );
  }

  /**
   * Sends an event to the run's stream, redacted. With something to redact, streamed text is
   * held back from its last whitespace on (until more text or another event comes), so a
   * secret split across two deltas is still found.
   */
  emit(event: RunEvent): void {
    if (this.redactor.empty) return this.#push(event);
    if (event.type === 'text-delta') return this.#text(event);
    this.#flushText();
    this.#push(this.redactor.value(event));
  }

  /** One event, redacted, to the run's stream and to its durable engine. */
  #push(event: RunEvent): void {
    this.events.push(event);
    this.durable?.engine.publish?.(event);
  }

  #heldText = new Map<string, Extract<RunEvent, { type: 'text-delta' }>>();

  #text(event: Extract<RunEvent, { type: 'text-delta' }>): void {
    const key = `${event.runId} ${event.step}`;
    const text = (this.#heldText.get(key)?.delta ?? '') + event.delta;
    const cut = text.length > MAX_HELD_TEXT ? text.length : text.search(/\s\S*$/) + 1;
    if (cut < text.length) this.#heldText.set(key, { ...event, delta: text.slice(cut) });
    else this.#heldText.delete(key);
    if (cut > 0) this.#push({ ...event, delta: this.redactor.text(text.slice(0, cut)) });
  }

  #flushText(): void {
    for (const held of this.#heldText.values())
      this.#push({ ...held, delta: this.redactor.text(held.delta) });
    this.#heldText.clear();
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

/**
 * Keeps a late reader's history short: consecutive text deltas of one step (of one run) are
 * replayed as one delta holding their text.
 */
const joinTextDeltas: EventJoining<RunEvent> = {
  canJoin: (first, next) =>
    first.type === 'text-delta' &&
    next.type === 'text-delta' &&
    first.step === next.step &&
    first.runId === next.runId,
  join: (events) => ({
    ...(events[0] as Extract<RunEvent, { type: 'text-delta' }>),
    delta: events.map((e) => (e as Extract<RunEvent, { type: 'text-delta' }>).delta).join(''),
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
  trace: TraceNode;
  /**
   * Tool executions of this run's agents still in flight (a composite call among them stands
   * for its own child run's), so a child run that is aborted can wait for its cleanup.
   */
  inflight: Set<Promise<unknown>>;
  /**
   * The live `{ trace, usage }` of composite calls whose tool node the step has not opened
   * yet, by tool call id: the step gives it to the node as its `output` when it opens it.
   */
  liveCalls: Map<string, unknown>;
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
  trace: TraceNode;
  /** Tool sources declared but not connected (outside a run: `inspect()` does not connect). */
  waiting?: string[];
}

/** Everything evaluation of one node needs. */
export interface EvalContext {
  run: RunFrame;
  agent?: AgentFrame;
  parentTrace: TraceNode;
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

/** A new run frame. */
export function createRunFrame(
  root: RunRoot,
  runId: string,
  prefix: string[],
  signal: AbortSignal,
  trace: TraceNode,
  callerScope?: ResolvedScope,
): RunFrame {
  return {
    root,
    runId,
    prefix,
    calls: [],
    signal,
    steps: {},
    stepElements: new Map(),
    usage: emptyUsage(),
    trace,
    inflight: new Set(),
    liveCalls: new Map(),
    ...(callerScope ? { callerScope } : {}),
  };
}
