import { plainJson } from '../json/json-form.js';
import type { NodePlace } from './node-place.js';
import type { RunLog } from './run-log.js';

/** One tool call node of a step. */
interface CallNode {
  nodeId: string;
  name: string;
  open: boolean;
  /** Its `tool-call` part came (else its execution opened it first). */
  seen: boolean;
  /** Its execution started. */
  started: boolean;
  /** A composite call's execute took it as its own (its child run goes under it). */
  claimed: boolean;
}

/**
 * The tool call nodes of one step, by the provider's tool call id. A provider may repeat an
 * id (across turns, or within one), so each id keeps its nodes in order, and a part goes to
 * the first one still open.
 *
 * A call's node opens when the step reads its `tool-call` part or when its execution starts
 * ({@link started}, the AI SDK's `onToolExecutionStart`), whichever comes first: which one
 * that is depends on how far the step's reader has got (Node 24 schedules stream reads later
 * than Node 22), so a tool that ran always has its node, also when the run is aborted before
 * the part is read. The part, when it comes, takes the node its execution opened.
 */
export class ToolNodes {
  readonly #calls = new Map<string, CallNode[]>();
  #models = 0;

  constructor(
    /** The run's log, where calls' events go. */
    private readonly log: RunLog,
    /** The run (outermost or child) of the step. */
    private readonly runId: string,
    /** The step path. */
    private readonly step: string,
    /** The step's node: the parent of its tool calls. */
    private readonly parentId: string,
    /**
     * With a durable engine: the composite calls on the way (`RunFrame.calls`) and the
     * journal's call id of a provider's tool call id, for the record names of the step's
     * calls (see `forkPoints`).
     */
    private readonly records?: { calls: readonly string[]; callId: (toolCallId: string) => string },
  ) {}

  /**
   * A model call of the step starts: its node id (named by its index), and its record name,
   * with a durable engine, for its `model-start` (the step's calls in order, from 0, as the
   * journal numbers them at the step's place).
   */
  modelStarted(): { nodeId: string; record?: string } {
    const index = this.#models++;
    const nodeId = this.log.nodeId(this.parentId, `model#${index}`);
    if (!this.records) return { nodeId };
    return { nodeId, record: `model ${[...this.records.calls, this.step].join('/')} #${index}` };
  }

  /**
   * The record name of a tool call's execution, with a durable engine (an approval request
   * carries it too: a denied call's node may be opened by its request, never by its execution).
   */
  toolRecord(toolCallId: string, tool: string): string | undefined {
    if (!this.records) return undefined;
    return `tool ${tool} ${[...this.records.calls, this.records.callId(toolCallId)].join('/')}`;
  }

  /** The node of a `tool-call` part; emits `tool-call` unless its execution did. */
  called(toolCallId: string, tool: string, input: unknown): NodePlace {
    const early = this.#list(toolCallId).find((node) => !node.seen && node.name === tool);
    if (early) {
      early.seen = true;
      return this.#place(early);
    }
    return this.#place(this.#open(toolCallId, tool, input, { seen: true, started: false }));
  }

  /**
   * A call's execution starts: its node is the first open one of its id and name whose
   * execution had not started (its part came first), else a new one (`tool-call` is emitted
   * now, and the part takes it when it comes).
   */
  started(toolCallId: string, tool: string, input: unknown): NodePlace {
    const node = this.#list(toolCallId).find(
      (candidate) => candidate.open && !candidate.started && candidate.name === tool,
    );
    if (node) {
      node.started = true;
      return this.#place(node);
    }
    return this.#place(this.#open(toolCallId, tool, input, { seen: false, started: true }));
  }

  /**
   * The node a result, error, denial or approval request of a call goes to: the first open
   * one of its id (by name first); a new one when none is open (its event opens it).
   */
  find(toolCallId: string, tool: string): NodePlace {
    const open = this.#list(toolCallId).filter((node) => node.open);
    const found = open.find((node) => node.name === tool) ?? open[0];
    if (found) return this.#place(found);
    const node = this.#add(toolCallId, tool, { seen: true, started: false });
    return this.#place(node);
  }

  /** The call's node is closed. */
  closed(toolCallId: string, nodeId: string): void {
    const node = this.#list(toolCallId).find((candidate) => candidate.nodeId === nodeId);
    if (node) node.open = false;
  }

  /** The node of a composite call whose execute starts: the latest open one not taken, or a new one. */
  claim(toolCallId: string, tool: string, input: unknown): NodePlace {
    const nodes = this.#list(toolCallId);
    for (let i = nodes.length - 1; i >= 0; i--) {
      const node = nodes[i]!;
      if (node.open && (node.seen || node.started) && !node.claimed && node.name === tool) {
        node.claimed = true;
        node.started = true;
        return this.#place(node);
      }
    }
    const node = this.#open(toolCallId, tool, input, { seen: false, started: true });
    node.claimed = true;
    return this.#place(node);
  }

  #open(
    toolCallId: string,
    tool: string,
    input: unknown,
    state: Pick<CallNode, 'seen' | 'started'>,
  ): CallNode {
    const node = this.#add(toolCallId, tool, state);
    const record = this.toolRecord(toolCallId, tool);
    this.log.emit({
      type: 'tool-call',
      runId: this.runId,
      step: this.step,
      toolCallId,
      tool,
      input: plainJson(input),
      ...(record !== undefined ? { record } : {}),
      ...this.#place(node),
    });
    return node;
  }

  #add(toolCallId: string, tool: string, state: Pick<CallNode, 'seen' | 'started'>): CallNode {
    const node: CallNode = {
      // named by its call id at its place (the provider's id without a durable engine)
      nodeId: this.log.nodeId(
        this.parentId,
        `tool:${this.records?.callId(toolCallId) ?? toolCallId}`,
      ),
      name: tool,
      open: true,
      ...state,
      claimed: false,
    };
    const nodes = this.#calls.get(toolCallId);
    if (nodes) nodes.push(node);
    else this.#calls.set(toolCallId, [node]);
    return node;
  }

  #list(toolCallId: string): CallNode[] {
    return this.#calls.get(toolCallId) ?? [];
  }

  #place(node: CallNode): NodePlace {
    return { nodeId: node.nodeId, parentId: this.parentId };
  }
}
