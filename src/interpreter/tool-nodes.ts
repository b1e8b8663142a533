import { plainJson } from '../json/json-form.js';
import type { NodePlace, RunFrame } from './run-state.js';

/** One tool call node of a step. */
interface CallNode {
  nodeId: string;
  name: string;
  open: boolean;
  /** Its `tool-call` part came (else a composite's execute opened it first). */
  seen: boolean;
  /** A composite call's execute took it as its own (its child run goes under it). */
  claimed: boolean;
}

/**
 * The tool call nodes of one step, by the provider's tool call id. A provider may repeat an
 * id (across turns, or within one), so each id keeps its nodes in order, and a part goes to
 * the first one still open. A composite tool's execute may start before the step sees its
 * `tool-call` part: it then opens the node itself (so the call comes before its child run),
 * and the part takes that node when it comes.
 */
export class ToolNodes {
  readonly #calls = new Map<string, CallNode[]>();

  constructor(
    private readonly run: RunFrame,
    /** The step path. */
    private readonly step: string,
    /** The step's node: the parent of its tool calls. */
    private readonly parentId: string,
  ) {}

  /** The node of a `tool-call` part; emits `tool-call` unless an execute did. */
  called(toolCallId: string, tool: string, input: unknown): NodePlace {
    const early = this.#list(toolCallId).find((node) => !node.seen && node.name === tool);
    if (early) {
      early.seen = true;
      return this.#place(early);
    }
    return this.#place(this.#open(toolCallId, tool, input, true));
  }

  /**
   * The node a result, error, denial or approval request of a call goes to: the first open
   * one of its id (by name first); a new one when none is open (its event opens it).
   */
  find(toolCallId: string, tool: string): NodePlace {
    const open = this.#list(toolCallId).filter((node) => node.open);
    const found = open.find((node) => node.name === tool) ?? open[0];
    if (found) return this.#place(found);
    const node = this.#add(toolCallId, tool, true);
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
      if (node.open && node.seen && !node.claimed && node.name === tool) {
        node.claimed = true;
        return this.#place(node);
      }
    }
    const node = this.#open(toolCallId, tool, input, false);
    node.claimed = true;
    return this.#place(node);
  }

  #open(toolCallId: string, tool: string, input: unknown, seen: boolean): CallNode {
    const node = this.#add(toolCallId, tool, seen);
    this.run.root.emit({
      type: 'tool-call',
      runId: this.run.runId,
      step: this.step,
      toolCallId,
      tool,
      input: plainJson(input),
      ...this.#place(node),
    });
    return node;
  }

  #add(toolCallId: string, tool: string, seen: boolean): CallNode {
    const node: CallNode = {
      nodeId: this.run.root.nodeId(),
      name: tool,
      open: true,
      seen,
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
