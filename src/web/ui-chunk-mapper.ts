import { modelOutputOf } from '../trace/composite-result.js';
import type { JuneAgentData, JuneUIMessageChunk } from './june-ui-message.js';
import type { RunLogEvent, RunLogEventOf } from '../events/run-event.js';
import { ResumeFilter, type ResumeFilterOptions } from './resume-filter.js';
import { UIToolCalls, type UIToolCall } from './ui-tool-calls.js';

type Event<T extends RunLogEvent['type']> = RunLogEventOf<T>;
type Chunk = JuneUIMessageChunk;

/** Options of {@link UIChunkMapper}. */
export interface UIChunkMapperOptions {
  /** The run was resumed: hold back what the browser was sent before (see {@link ResumeFilter}). */
  resumed?: ResumeFilterOptions | boolean;
  /** UI tool call ids of the parts the message being continued has already. */
  shown?: Iterable<string>;
}

/**
 * Turns a run's events, one at a time, into UI message chunks (the AI SDK's UI message
 * stream protocol) for one assistant message:
 *
 * - text deltas as text parts, one per stretch of a step's text (child runs' text too, each
 *   part with `providerMetadata.june.step`);
 * - tool calls as `tool-<name>` parts under the names the model sees, ids
 *   `<step path>/<toolCallId>`, with their output or error, `toolMetadata.step` the step path;
 * - an approval request as the part's approval, its id the call's key (stable across
 *   resumes, see `ApprovalRequest.key`), its answer as the part's response
 *   (`approval-responded`: a call answered while other requests of its turn wait is shown
 *   answered, not asked again); a denial then as `output-denied`; an answer instead of the
 *   tool as `output-available` with that output; an edit shows the edited input; a
 *   `<Question>`'s request adds a `data-june-question` part (its prompt and answer schema);
 * - runs, child runs, agents, steps and caught failures as `data-june-*` parts, updated in
 *   place as they finish, so a page can show nested progress;
 * - the outermost run's start as `start` with `{ runId }` metadata, its steps as
 *   `start-step`/`finish-step`.
 *
 * `run-finish` of the outermost run closes open text; the caller writes `finish`.
 */
export class UIChunkMapper {
  readonly calls = new UIToolCalls();
  readonly #filter: ResumeFilter | undefined;
  /** Open text and reasoning parts by `<runId>|<step>|<kind>`. */
  readonly #texts = new Map<string, string>();
  /** Asked calls by request id, with the approval id the page knows them by (the call's key). */
  readonly #approvals = new Map<
    string,
    { call: UIToolCall; approvalId: string; tool: string; step: string }
  >();
  readonly #agents = new Map<string, Array<JuneAgentData & { id: string; nodeId: string }>>();
  readonly #stepAgents = new Map<string, string>();
  /** Tool parts the message has: later chunks about other calls would have no part to update. */
  readonly #shown: Set<string>;
  #root: string | undefined;
  #count = 0;
  /** Agents started, counted apart from text parts, so a replay gives an agent the id it had. */
  #agentCount = 0;

  constructor(options: UIChunkMapperOptions = {}) {
    const { resumed } = options;
    this.#shown = new Set(options.shown ?? []);
    if (resumed) this.#filter = new ResumeFilter(this.calls, resumed === true ? {} : resumed);
  }

  /** The outermost run's id, once its `run-start` came. */
  get runId(): string | undefined {
    return this.#root;
  }

  /**
   * The chunks for `event` (none when the browser has seen it already). Events nest by
   * their trace nodes (a child run under the call whose node is its parent). Model calls,
   * denied calls (their denial came as an `approval-response`) and `<Catch>` attempts make
   * none; reasoning makes its own parts.
   */
  map(event: RunLogEvent): Chunk[] {
    switch (event.type) {
      case 'reasoning-delta':
        return (this.#filter?.isFresh(event.runId) ?? true)
          ? [...this.#endText(event), ...this.#delta(event, 'reasoning')]
          : [];
      case 'model-start':
      case 'model-finish':
      case 'tool-denied':
      case 'catch-start':
      case 'catch-finish':
        return [];
    }
    let call: UIToolCall | undefined;
    if (event.type === 'run-start') {
      this.#root ??= event.runId;
      if (event.parentToolCallId !== undefined)
        this.calls.childStarted(event.runId, event.parentToolCallId, event.parentId);
    }
    if (event.type === 'tool-call') call = this.calls.called(event);
    if (event.type === 'step-start') this.#stepAgents.set(stepKey(event), event.agent);
    if (event.type === 'approval-request') {
      const asked = this.calls.latest(event.runId, event.request.toolCallId);
      const approvalId = event.request.key ?? event.request.id;
      // a request that came up while the call ran (a served workflow's, under the call's
      // node) is not the call's own approval: the page does not show it as one
      if (asked && !(asked.nodeId !== undefined && asked.nodeId === event.parentId))
        this.#approvals.set(event.request.id, {
          call: asked,
          approvalId,
          tool: event.request.tool,
          step: event.request.step,
        });
    }
    const isNew = this.#filter?.isNew(event) ?? true;
    // an agent the browser was shown before still gets its part's id, for its end to update it
    if (event.type === 'agent-start' && !isNew) this.#agentStart(event);
    const chunks = isNew || event.runId === this.#root ? this.#chunks(event, call, isNew) : [];
    if (event.type === 'tool-result' || event.type === 'tool-error') {
      const settled = this.calls.find(event.runId, event.toolCallId);
      if (settled) this.calls.settled(settled);
    }
    return chunks;
  }

  #chunks(event: RunLogEvent, call: UIToolCall | undefined, isNew: boolean): Chunk[] {
    if (event.type === 'run-start' && event.runId === this.#root)
      return [{ type: 'start', messageMetadata: { runId: event.runId, waiting: false } }];
    if (!isNew) return [];
    const text = this.#endText(event);
    const body = this.#body(event, call).filter((chunk) => {
      if (chunk.type === 'tool-input-available') this.#shown.add(chunk.toolCallId);
      return !('toolCallId' in chunk) || this.#shown.has(chunk.toolCallId);
    });
    return [...text, ...body];
  }

  #body(event: RunLogEvent, call: UIToolCall | undefined): Chunk[] {
    switch (event.type) {
      case 'run-start':
        return [this.#run(event.runId, { status: 'running' })];
      case 'run-finish':
        return event.runId === this.#root
          ? []
          : [this.#run(event.runId, { status: event.status, error: event.error })];
      case 'agent-start':
        return [this.#agentStart(event)];
      case 'agent-finish':
        return this.#agentFinish(event);
      case 'step-start':
      case 'step-finish':
        return this.#step(event);
      case 'text-delta':
        return this.#delta(event, 'text');
      case 'tool-call':
        return [this.#toolCall(event, call!)];
      case 'tool-result':
        return this.#toolResult(event);
      case 'tool-error': {
        const found = this.calls.find(event.runId, event.toolCallId);
        return found
          ? [{ type: 'tool-output-error', toolCallId: found.id, errorText: event.error.message }]
          : [];
      }
      case 'approval-request':
        return this.#approvalRequest(event);
      case 'approval-response':
        return this.#approvalResponse(event);
      case 'error': {
        const { error, attempt, willRetry, fallback } = event;
        return [
          {
            type: 'data-june-catch',
            data: { error, attempt, willRetry, ...(fallback ? { fallback } : {}) },
          },
        ];
      }
      default:
        return [];
    }
  }

  #run(runId: string, state: { status: Event<'run-finish'>['status']; error?: unknown }): Chunk {
    const parent = this.calls.parentOf(runId);
    return {
      type: 'data-june-run',
      id: parent ? `run:${parent.id}` : 'run',
      data: {
        ...(parent ? { step: parent.step, toolCallId: parent.id } : {}),
        status: state.status,
        ...(state.error !== undefined ? { error: state.error as never } : {}),
      },
    };
  }

  #agentStart(event: Event<'agent-start'>): Chunk {
    const parent = this.calls.parentOf(event.runId);
    const id = `agent:${parent?.id ?? ''}:${event.agent}:${++this.#agentCount}`;
    const { agent, tools } = event;
    const data: JuneAgentData = {
      agent,
      ...(parent ? { in: parent.step } : {}),
      tools,
      status: 'running',
    };
    const entry = { ...data, id, nodeId: event.nodeId };
    this.#agents.set(event.runId, [...(this.#agents.get(event.runId) ?? []), entry]);
    return { type: 'data-june-agent', id, data };
  }

  #agentFinish(event: Event<'agent-finish'>): Chunk[] {
    const open = this.#agents.get(event.runId) ?? [];
    const found = open.findLast((entry) => entry.nodeId === event.nodeId);
    if (!found) return [];
    this.#agents.set(
      event.runId,
      open.filter((entry) => entry !== found),
    );
    const { id, nodeId: _node, ...data } = found;
    return [{ type: 'data-june-agent', id, data: { ...data, status: event.status } }];
  }

  /** A step's part: at its start (named by the start's agent), and at its end with its status. */
  #step(event: Event<'step-start' | 'step-finish'>): Chunk[] {
    const { runId, step } = event;
    const key = stepKey(event);
    const starts = event.type === 'step-start';
    const agent = starts ? event.agent : (this.#stepAgents.get(key) ?? '');
    if (!starts) this.#stepAgents.delete(key);
    const status = starts ? 'running' : event.status;
    const data: Chunk = {
      type: 'data-june-step',
      id: `step:${step}`,
      data: { step, agent, status },
    };
    if (runId !== this.#root) return [data];
    return starts ? [{ type: 'start-step' }, data] : [data, { type: 'finish-step' }];
  }

  /** A piece of text or reasoning: a new part for each stretch of a step's text or reasoning. */
  #delta(event: Event<'text-delta' | 'reasoning-delta'>, kind: 'text' | 'reasoning'): Chunk[] {
    const key = `${event.runId}|${event.step}|${kind}`;
    let id = this.#texts.get(key);
    const chunks: Chunk[] = [];
    if (id === undefined) {
      id = `${kind}-${++this.#count}`;
      this.#texts.set(key, id);
      const providerMetadata = { june: { step: event.step } };
      chunks.push(
        kind === 'text'
          ? { type: 'text-start', id, providerMetadata }
          : { type: 'reasoning-start', id, providerMetadata },
      );
    }
    chunks.push({ type: `${kind}-delta`, id, delta: event.delta });
    return chunks;
  }

  /**
   * Ends the open text and reasoning parts of the event's run and step (any event but a
   * delta of the same kind ends them), all of them at the outermost run's end.
   */
  #endText(event: RunLogEvent): Chunk[] {
    const chunks: Chunk[] = [];
    const kind =
      event.type === 'text-delta' ? 'text' : event.type === 'reasoning-delta' ? 'reasoning' : '';
    for (const [key, id] of this.#texts) {
      const [runId, step, open] = key.split('|') as [string, string, 'text' | 'reasoning'];
      const ends =
        (runId === event.runId && (!('step' in event) || event.step === step) && open !== kind) ||
        (event.type === 'run-finish' && event.runId === this.#root);
      if (!ends) continue;
      chunks.push({ type: `${open}-end`, id });
      this.#texts.delete(key);
    }
    return chunks;
  }

  #toolCall(event: Event<'tool-call'>, call: UIToolCall): Chunk {
    return {
      type: 'tool-input-available',
      toolCallId: call.id,
      toolName: event.tool,
      input: event.input,
      toolMetadata: { step: event.step },
    };
  }

  #toolResult(event: Event<'tool-result'>): Chunk[] {
    const call = this.calls.find(event.runId, event.toolCallId);
    if (!call) return [];
    // a composite call's output holds its child run's trace and usage: the page gets the output
    const output = call.child !== undefined ? modelOutputOf(event.output) : event.output;
    return [{ type: 'tool-output-available', toolCallId: call.id, output }];
  }

  #approvalResponse(event: Event<'approval-response'>): Chunk[] {
    const asked = this.#approvals.get(event.id);
    if (!asked) return [];
    // the part shows the answer at once: a call answered first may wait for the other
    // requests of its turn (it is held), and the page must not ask about it again
    const response: Chunk = {
      type: 'tool-approval-response',
      approvalId: asked.approvalId,
      approved: event.approved,
      ...(event.reason !== undefined ? { reason: event.reason } : {}),
    };
    const shown = this.#shown.has(asked.call.id);
    return [
      // an edit: the part shows the input the call runs with (the model's is in the trace)
      ...(shown && event.input !== undefined
        ? [
            {
              type: 'tool-input-available' as const,
              toolCallId: asked.call.id,
              toolName: asked.tool,
              input: event.input,
              toolMetadata: { step: asked.step },
            },
          ]
        : []),
      // only a part the message has can take it (the page finds it by its approval id)
      ...(shown ? [response] : []),
      approvalData(asked.call.id, event),
      // an answer instead of the tool is the call's output; a plain denial, a denial
      ...(event.output !== undefined
        ? [
            {
              type: 'tool-output-available' as const,
              toolCallId: asked.call.id,
              output: event.output,
            },
          ]
        : event.approved
          ? []
          : [{ type: 'tool-output-denied' as const, toolCallId: asked.call.id }]),
    ];
  }

  #approvalRequest(event: Event<'approval-request'>): Chunk[] {
    const asked = this.#approvals.get(event.request.id);
    if (!asked) return [];
    const request = event.request;
    return [
      { type: 'tool-approval-request', approvalId: asked.approvalId, toolCallId: asked.call.id },
      // a question: what the page needs to ask it (kept in the message, so a reload has it)
      ...(request.kind === 'question' && request.question
        ? [
            {
              type: 'data-june-question' as const,
              id: asked.call.id,
              data: {
                toolCallId: asked.call.id,
                approvalId: asked.approvalId,
                question: request.question,
              },
            },
          ]
        : []),
      // a guard's escalation: which guard, and why (kept in the message, for whoever answers)
      ...(request.guard
        ? [
            {
              type: 'data-june-guard' as const,
              id: asked.call.id,
              data: {
                toolCallId: asked.call.id,
                approvalId: asked.approvalId,
                guard: request.guard,
              },
            },
          ]
        : []),
      // a budget's request for more: which budget, what was spent, its cap, what approving adds
      ...(request.budget
        ? [
            {
              type: 'data-june-budget' as const,
              id: asked.call.id,
              data: {
                toolCallId: asked.call.id,
                approvalId: asked.approvalId,
                budget: request.budget,
              },
            },
          ]
        : []),
    ];
  }
}

/**
 * A call's answer as a transient `data-june-approval` part (a page gets it in `onData`; it is
 * not kept in the message, whose tool part shows the outcome): approved or not, and through
 * which way, by whom and when it was answered.
 */
function approvalData(toolCallId: string, event: Event<'approval-response'>): Chunk {
  return {
    type: 'data-june-approval',
    id: toolCallId,
    data: {
      toolCallId,
      approved: event.approved,
      ...(event.reason !== undefined ? { reason: event.reason } : {}),
      automatic: event.automatic,
      ...(event.source !== undefined ? { source: event.source } : {}),
      ...(event.answeredBy !== undefined ? { answeredBy: event.answeredBy } : {}),
      ...(event.answeredAt !== undefined ? { answeredAt: event.answeredAt } : {}),
    },
    transient: true,
  };
}

/** Where a step's agent is kept between its start and finish: its node, else its run and path. */
function stepKey(event: Event<'step-start' | 'step-finish'>): string {
  return event.nodeId;
}
