import type { PriceSettings } from './budget-price.js';
import type { LanguageModel, LanguageModelUsage, ModelMessage } from 'ai';
import type { ResolvedScope } from '../capabilities/scope.js';
import type { JuneElement, JuneNode } from '../elements/element.js';
import { emptyUsage } from '../models/usage.js';
import type { EventInput } from './event-input.js';
import type { RunServices } from './run-services.js';
import type { ToolNodes } from './tool-nodes.js';
import type { PolicyEntry } from './guard-entry.js';

/**
 * One walk over a workflow's tree: a run (`RunPass`), the static check a run makes before its
 * first model call (`CheckPass`), or `inspect()` (`InspectPass`). The walk (`evaluate` and the
 * evaluators of agents, steps and `<Catch>`) is the same for all three; it asks the pass what
 * differs. Only a run has services: steps run, tool sources connect, tool executions are
 * tracked and a `<Catch>` retries only when {@link services} is there.
 */
export interface TreePass {
  /** The run's services, when this pass runs the tree; undefined for the static check and `inspect()`. */
  readonly services: RunServices | undefined;
  /** The trace node id of a new node named `name` under `parentId` (see `RunLog.nodeId`). */
  nodeId(parentId: string | undefined, name: string): string;
  /** Sends an event to the run's log; a pass that runs nothing sends it nowhere. */
  emit(event: EventInput): void;
  /** What a user component renders: rendered now, or what an earlier pass rendered. */
  render(element: JuneElement): JuneNode | Promise<JuneNode>;
  /** Checks an agent's model before the first model call (`inspect()` checks none). */
  checkModel?(model: LanguageModel, what: string): void;
  /** What the pass knows of the run's models and prices, to check `<Budget usd>`s (`inspect()` knows none). */
  readonly priceSettings?: PriceSettings;
  /** An agent resolved its capabilities (`inspect()` reports it). */
  agentResolved?(agent: AgentFrame): void;
  /** A composite tool was declared (`inspect()` renders its body for a sample input). */
  compositeFound?(body: CompositeBody): void;
}

/** One run: the outermost one, or a child run started by a composite tool call. */
export interface RunFrame<P extends TreePass = TreePass> {
  /** The walk this run is part of, and through it the run's services. */
  pass: P;
  runId: string;
  /** Composite tool names from the outermost run down to this one. */
  prefix: string[];
  /**
   * The ids of those composite tool calls, in the same order (the journal tells parallel
   * calls apart by them), and the `<Parallel>` branches on the way (`[key]`, see
   * `branchSegment`).
   */
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
  /**
   * The tool call nodes of the steps running now, by step path (one step at a time, but for
   * the branches of a `<Parallel>`), where a composite call finds its node.
   */
  toolNodes: Map<string, ToolNodes>;
  /** For a child run: the calling agent's scope, which `<Inherit>` reads. */
  callerScope?: ResolvedScope;
  /** For a child run: the guards over the call that started it, outermost first. */
  guards?: readonly PolicyEntry[];
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
  messages: ModelMessage[];
  /** The agent's trace node. */
  nodeId: string;
  /** Tool sources declared but not connected (outside a run: `inspect()` does not connect). */
  waiting?: string[];
  /** The `<Guard>`s over the agent, outermost first. */
  guards?: readonly PolicyEntry[];
  /** The `<Parallel>` branch it stands in, as keys joined by ` > ` (see `branchPathOf`). */
  branch?: string;
  /**
   * In a `<Parallel>` branch, the branch's copy of an agent's frame keeps here what its steps
   * added to the conversation: what the join adds to the agent's own conversation (a
   * compaction in the branch replaces `messages`, never this).
   */
  exchange?: ModelMessage[];
}

/** Everything evaluation of one node needs. */
export interface EvalContext {
  run: RunFrame;
  agent?: AgentFrame;
  /** The trace node the evaluated nodes go under. */
  parentId: string;
  /** The user component whose output is being evaluated, for error messages. */
  renderedBy?: string;
  /** The `<Guard>`s over this part of the tree, outermost first (see {@link guardsOf}). */
  guards?: readonly PolicyEntry[];
  /**
   * For each `<Catch>` attempt around this part of the tree (in this run), the ids of the
   * steps it checked: what a failed attempt forgets, and nothing a sibling `<Parallel>`
   * branch did meanwhile.
   */
  attempts?: readonly Set<string>[];
}

/** The guards over what `ctx` evaluates: its own, else those of the call that started its run. */
export function guardsOf(ctx: EvalContext): readonly PolicyEntry[] {
  return ctx.guards ?? ctx.run.guards ?? [];
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
  /** The guards over the calling agent, outermost first. */
  guards?: readonly PolicyEntry[];
}

/** What {@link createRunFrame} needs. */
export interface RunFrameOptions<P extends TreePass> {
  pass: P;
  runId: string;
  /** Composite tool names from the outermost run down to this one. */
  prefix: string[];
  signal: AbortSignal;
  /** The calling agent's scope, for a child run. */
  callerScope?: ResolvedScope;
  /** The composite tool call node that starts a child run. */
  parentId?: string;
  /** The guards over the call that starts a child run. */
  guards?: readonly PolicyEntry[];
  /** The composite calls and `<Parallel>` branches on the way to a child run (`RunFrame.calls`). */
  calls?: string[];
}

/** A new run frame, with a new node id. */
export function createRunFrame<P extends TreePass>(options: RunFrameOptions<P>): RunFrame<P> {
  const { pass, runId, prefix, signal, callerScope, parentId, guards } = options;
  const calls = options.calls ?? [];
  return {
    pass,
    runId,
    prefix,
    calls,
    signal,
    steps: {},
    stepElements: new Map(),
    usage: emptyUsage(),
    // a child run is named by its call's node, or by its calls when it has none
    nodeId: pass.nodeId(parentId, parentId === undefined ? `run:${calls.join('/')}` : 'run'),
    ...(parentId !== undefined ? { parentId } : {}),
    inflight: new Set(),
    toolNodes: new Map(),
    ...(callerScope ? { callerScope } : {}),
    ...(guards?.length ? { guards } : {}),
  };
}
