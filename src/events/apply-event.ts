import { recordedOrigin } from '../approvals/answer-origin.js';
import type { RunLogEvent, RunLogEventOf } from './run-event.js';
import { emptyUsage, sumUsage } from '../models/usage.js';
import type { LiveTrace } from './live-trace.js';
import { closeTraceNode, openDescendants } from './settle-nodes.js';
import type {
  TraceApproval,
  TraceError,
  TraceNode,
  TraceNodeKind,
  TraceStatus,
} from '../trace/trace-node.js';
import { isoTime } from '../trace/iso-time.js';

/**
 * Builds a run's trace from its events, one event at a time: the one place a trace is made
 * (`handle.trace()`, `result.trace`, trace files, Studio's live view and any follower of a
 * run's events reduce the same events the same way). Each event finds its node by
 * `nodeId` (its parent by `parentId`); nothing walks the tree but the settling of a node
 * that failed (its open descendants close with it). Returns `live`, changed.
 *
 * Events are expected in the order a run emits them; an event for a node that never opened
 * (a tool result whose call was not seen) opens it where `parentId` says.
 *
 * @example
 * ```ts
 * const live = liveTrace();
 * run(<Release />, { consumers: [{ event: (event) => applyEvent(live, event) }] });
 * ```
 */
export function applyEvent(live: LiveTrace, event: RunLogEvent): LiveTrace {
  const handler = handlers[event.type] as Handler<RunLogEvent> | undefined;
  handler?.(live, event);
  return live;
}

type Handler<E extends RunLogEvent> = (live: LiveTrace, event: E) => void;

const handlers: { [T in RunLogEvent['type']]?: Handler<RunLogEventOf<T>> } = {
  'run-start': startRun,
  'run-finish': finishRun,
  'agent-start': (live, e) => {
    open(live, e, 'agent', e.agent, {
      model: e.model,
      ...(e.capabilities ? { capabilities: e.capabilities } : {}),
    });
  },
  'agent-finish': (live, e) => {
    const node = e.unstarted ? open(live, e, 'agent', e.agent) : live.nodes.get(e.nodeId);
    if (node) settle(live, node, e.status, e.at, e.error);
  },
  compaction: (live, e) => {
    const node = live.nodes.get(e.nodeId);
    if (!node) return;
    const { type: _t, runId: _r, agent: _a, nodeId: _n, parentId: _p, at, ...compaction } = e;
    (node.compactions ??= []).push({ at: isoTime(at), ...compaction });
  },
  'step-start': (live, e) => {
    open(live, e, 'step', stepId(e.step), {
      step: e.step,
      prompt: e.prompt,
      ...(e.files ? { files: e.files } : {}),
    });
  },
  'step-finish': finishStep,
  'model-start': (live, e) => {
    open(live, e, 'model', 'model', {
      ...(e.provider !== undefined ? { provider: e.provider } : {}),
      ...(e.model !== undefined ? { model: e.model } : {}),
      ...(e.record !== undefined ? { record: e.record } : {}),
    });
  },
  'model-finish': (live, e) => {
    const node = live.nodes.get(e.nodeId);
    if (!node) return;
    node.name = e.model;
    node.usage = e.usage;
    node.finishReason = e.finishReason;
    if (e.replayed) node.replayed = true;
    if (e.price) node.price = e.price;
    if (e.costUsd !== undefined) node.costUsd = e.costUsd;
    close(live, node, 'succeeded', e.at);
  },
  'tool-call': (live, e) => {
    const node = open(live, e, 'tool', e.tool, {
      toolCallId: e.toolCallId,
      input: e.input,
      ...(e.record !== undefined ? { record: e.record } : {}),
    });
    const child = live.waiting.get(e.nodeId);
    if (child) {
      node.output = child;
      live.waiting.delete(e.nodeId);
    }
  },
  'tool-result': (live, e) => {
    const node = toolNode(live, e);
    node.output = e.output;
    close(live, node, 'succeeded', e.at);
  },
  'tool-error': (live, e) => close(live, toolNode(live, e), e.status, e.at, e.error),
  'tool-denied': (live, e) => close(live, toolNode(live, e), 'denied', e.at),
  'guard-decision': (live, e) => {
    const node =
      e.tool !== undefined && e.toolCallId !== undefined
        ? toolNode(live, { ...e, tool: e.tool, toolCallId: e.toolCallId })
        : live.nodes.get(e.nodeId);
    if (!node) return;
    const { guard, declaration, check, action, reason, replayed, usage, costUsd } = e;
    node.guards = [
      ...(node.guards ?? []),
      {
        guard,
        declaration,
        check,
        action,
        ...(reason !== undefined ? { reason } : {}),
        ...(replayed ? { replayed } : {}),
        ...(usage !== undefined ? { usage } : {}),
        ...(costUsd !== undefined ? { costUsd } : {}),
      },
    ];
  },
  budget: (live, e) => {
    const node = live.nodes.get(e.nodeId);
    if (!node) return;
    const { budget, declaration, cap, spent, action, replayed } = e;
    node.budgets = [
      ...(node.budgets ?? []),
      { budget, declaration, cap, spent, action, ...(replayed ? { replayed } : {}) },
    ];
  },
  'approval-request': (live, e) => {
    const node = toolNode(live, { ...e, tool: e.request.tool, toolCallId: e.request.toolCallId });
    // a request that came up while its call ran (a served workflow's) is its own node under the call
    if (withinCall(live, e.parentId) && node.input === undefined) node.input = e.request.input;
    if (node.record === undefined && e.record !== undefined) node.record = e.record;
    node.approval = {
      id: e.request.id,
      status: 'pending',
      ...(e.request.key !== undefined ? { key: e.request.key } : {}),
      ...(e.request.kind === 'question' ? { kind: e.request.kind } : {}),
      ...(e.request.question !== undefined ? { question: e.request.question } : {}),
      ...(e.request.guard !== undefined ? { guard: e.request.guard } : {}),
      ...(e.request.budget !== undefined ? { budget: e.request.budget } : {}),
    };
    node.status = 'waiting';
  },
  'approval-response': (live, e) => {
    // a replayed answer to a request within a call was not asked: its node opens here,
    // named by the request's own part of its key (`ship#0.0`)
    const node =
      live.nodes.get(e.nodeId) ??
      (withinCall(live, e.parentId) && e.key !== undefined
        ? open(live, e, 'tool', e.key.slice(e.key.lastIndexOf('/') + 1))
        : undefined);
    if (!node) return;
    node.approval = {
      id: e.id,
      ...(e.key !== undefined ? { key: e.key } : {}),
      ...keyOf(node),
      ...(e.question !== undefined ? { kind: 'question' as const, question: e.question } : {}),
      status: e.output !== undefined ? 'responded' : e.approved ? 'approved' : 'denied',
      ...(e.reason !== undefined ? { reason: e.reason } : {}),
      ...(e.input !== undefined ? { input: e.input } : {}),
      ...(e.output !== undefined ? { output: e.output } : {}),
      ...(e.replayed ? { replayed: e.replayed } : {}),
      ...(e.automatic ? { automatic: e.automatic } : {}),
      ...recordedOrigin(e),
      ...(node.approval?.guard !== undefined ? { guard: node.approval.guard } : {}),
      ...(node.approval?.budget !== undefined ? { budget: node.approval.budget } : {}),
    };
    // a request within a call ends with its answer; the call goes on
    if (withinCall(live, e.parentId))
      close(live, node, node.approval.status === 'denied' ? 'denied' : 'succeeded', e.at);
    else holdOrRelease(live, node, e.parentId);
  },
  'approval-withdraw': (live, e) => {
    const node = live.nodes.get(e.nodeId);
    if (!node) return;
    if (!e.unasked) {
      node.approval = { id: e.id, ...keyOf(node), status: 'withdrawn' };
      if (withinCall(live, e.parentId)) close(live, node, 'aborted', e.at);
      return;
    }
    node.approval = { id: e.id, ...keyOf(node), status: 'withdrawn', reason: e.reason };
    close(live, node, 'aborted', e.at);
  },
  'catch-start': (live, e) => {
    open(live, e, 'catch', e.attempt === 'fallback' ? 'fallback' : `attempt ${e.attempt}`);
  },
  'catch-finish': (live, e) => {
    const node = live.nodes.get(e.nodeId);
    if (node) settle(live, node, e.status, e.at, e.error);
  },
  'parallel-start': (live, e) => {
    open(live, e, 'parallel', 'parallel', {
      branches: e.branches,
      mode: e.mode,
      ...(e.limit !== undefined ? { limit: e.limit } : {}),
    });
  },
  'parallel-finish': (live, e) => {
    const node = live.nodes.get(e.nodeId);
    if (node) settle(live, node, e.status, e.at, e.error);
  },
  'branch-start': (live, e) => {
    open(live, e, 'branch', e.branch, { branch: e.branch });
  },
  'branch-finish': (live, e) => {
    const node = live.nodes.get(e.nodeId);
    if (node) settle(live, node, e.status, e.at, e.error);
  },
};

/**
 * An answered call waits (`waiting`) while another call of its step is still open without an
 * answer: a step answers the requests of a model turn together, and its calls run only once
 * every one is answered (the other calls of the turn returned before the first request
 * came, so an open call of the step is one of the turn's). The answer that leaves none
 * unanswered lets the turn's held calls run.
 */
function holdOrRelease(live: LiveTrace, node: TraceNode, stepId: string | undefined): void {
  const siblings = (stepId === undefined ? undefined : live.nodes.get(stepId))?.children ?? [];
  const open = siblings.filter(
    (other) => other !== node && other.kind === 'tool' && other.endedAt === undefined,
  );
  if (open.some((other) => other.approval === undefined || other.approval.status === 'pending')) {
    node.status = 'waiting';
    return;
  }
  node.status = 'running';
  for (const other of open)
    if (other.status === 'waiting' && other.approval) other.status = 'running';
}

/**
 * What the call's approval request said that its answer keeps: the call's stable key (see
 * `ApprovalRequest.key`) and, for a question, what it asked.
 */
function keyOf(node: TraceNode): Pick<TraceApproval, 'key' | 'kind' | 'question'> {
  const approval = node.approval;
  if (!approval) return {};
  return {
    ...(approval.key !== undefined ? { key: approval.key } : {}),
    ...(approval.kind !== undefined ? { kind: approval.kind } : {}),
    ...(approval.question !== undefined ? { question: approval.question } : {}),
  };
}

function startRun(live: LiveTrace, e: RunLogEventOf<'run-start'>): void {
  const node = open(live, { ...e, parentId: undefined }, 'run', e.workflow ?? 'run', {
    ...(e.parentToolCallId !== undefined ? { toolCallId: e.parentToolCallId } : {}),
  });
  const trace = {
    version: 1 as const,
    runId: e.runId,
    ...(e.workflow !== undefined ? { workflow: e.workflow } : {}),
    ...(e.forkedFrom !== undefined ? { forkedFrom: e.forkedFrom } : {}),
    status: node.status,
    startedAt: node.startedAt,
    root: node,
  };
  live.runs.set(e.nodeId, trace);
  if (e.parentId === undefined) {
    live.trace = trace;
    return;
  }
  // a composite tool call's child run: its tool node shows it as it runs
  const output = { trace, usage: emptyUsage() };
  live.live.set(e.runId, output);
  const call = live.nodes.get(e.parentId);
  if (!call) live.waiting.set(e.parentId, output);
  else if (!call.endedAt && call.output === undefined) call.output = output;
}

function finishRun(live: LiveTrace, e: RunLogEventOf<'run-finish'>): void {
  const node = live.nodes.get(e.nodeId);
  const trace = live.runs.get(e.nodeId);
  if (!node || !trace) return;
  node.usage = e.usage;
  if (e.failures) node.failures = e.failures;
  if (e.abandoned) closeAbandoned(live, node, e.at, e.abandoned);
  if (e.status === 'succeeded') close(live, node, 'succeeded', e.at);
  else settle(live, node, e.status, e.at, e.error);
  trace.status = node.status;
  if (node.endedAt) trace.endedAt = node.endedAt;
  const output = live.live.get(e.runId);
  if (!output || e.parentId === undefined) return;
  live.live.delete(e.runId);
  output.usage = e.usage;
  // a failed call keeps its child run as its output; a call that returned gets its result
  const call = live.nodes.get(e.parentId);
  if (call && e.status !== 'succeeded') call.output = output;
  live.waiting.delete(e.parentId);
}

function finishStep(live: LiveTrace, e: RunLogEventOf<'step-finish'>): void {
  const node = e.unstarted
    ? open(live, e, 'step', stepId(e.step), { step: e.step })
    : live.nodes.get(e.nodeId);
  if (!node) return;
  const output = live.live.get(e.runId);
  if (output) output.usage = sumUsage(output.usage, e.usage);
  if (e.status === 'succeeded') {
    if ('result' in e) node.result = e.result;
    if (e.messages) node.messages = e.messages;
    node.usage = e.usage;
    close(live, node, 'succeeded', e.at);
    return;
  }
  // the model calls paid for before the failure keep their usage and cost, even when they
  // did not end: the nth model call of the step is the nth usage reported
  if (e.modelUsage) {
    let index = 0;
    for (const child of node.children) {
      if (child.kind !== 'model') continue;
      const at = index++;
      if (child.usage !== undefined || e.modelUsage[at] === undefined) continue;
      child.usage = e.modelUsage[at];
      const cost = e.modelCostUsd?.[at];
      if (typeof cost === 'number') child.costUsd = cost;
    }
  }
  node.usage = e.usage;
  settle(live, node, e.status, e.at, e.error);
}

/**
 * Closes every node still open under a run whose abort grace ran out, as `aborted`: the
 * innermost ones, and the tool calls whose executions did not stop, record `error`.
 */
function closeAbandoned(
  live: LiveTrace,
  run: TraceNode,
  at: number,
  abandoned: { error: TraceError; toolCallIds: string[] },
): void {
  const calls = new Set(abandoned.toolCallIds);
  const stack = [...run.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    stack.push(...node.children);
    const didNotStop = node.toolCallId !== undefined && calls.has(node.toolCallId);
    if (node.endedAt) {
      if (node.kind === 'tool' && didNotStop && node.status === 'aborted')
        node.error = abandoned.error;
      continue;
    }
    const innermost = didNotStop || node.children.every((child) => child.endedAt);
    close(live, node, 'aborted', at, innermost ? abandoned.error : undefined);
  }
}

/** Opens a node of `kind` under the event's `parentId` (a node already open with its id stays). */
function open(
  live: LiveTrace,
  e: { nodeId: string; parentId?: string; at: number },
  kind: TraceNodeKind,
  name: string,
  fields?: Partial<TraceNode>,
): TraceNode {
  const known = live.nodes.get(e.nodeId);
  if (known) return known;
  const node: TraceNode = {
    id: e.nodeId,
    kind,
    name,
    status: 'running',
    startedAt: isoTime(e.at),
    children: [],
  };
  if (fields) Object.assign(node, fields);
  live.nodes.set(e.nodeId, node);
  live.startedAt.set(e.nodeId, e.at);
  if (e.parentId !== undefined) live.nodes.get(e.parentId)?.children.push(node);
  return node;
}

/**
 * Whether an approval's node sits under a tool call (not a step): a request that came up
 * while the call ran (an MCP server's elicitation, a served June workflow's approval).
 */
function withinCall(live: LiveTrace, parentId: string | undefined): boolean {
  return parentId !== undefined && live.nodes.get(parentId)?.kind === 'tool';
}

/** The node of a tool call, opened when its call was not seen. */
function toolNode(
  live: LiveTrace,
  e: { nodeId: string; parentId?: string; at: number; tool: string; toolCallId: string },
): TraceNode {
  return live.nodes.get(e.nodeId) ?? open(live, e, 'tool', e.tool, { toolCallId: e.toolCallId });
}

function close(
  live: LiveTrace,
  node: TraceNode,
  status: TraceStatus,
  at: number,
  error?: TraceError,
): void {
  closeTraceNode(node, status, at, live.startedAt.get(node.id), error);
  live.startedAt.delete(node.id);
}

/** Closes `node` and every descendant still open: the error on `node`, the status on all. */
function settle(
  live: LiveTrace,
  node: TraceNode,
  status: TraceStatus,
  at: number,
  error?: TraceError,
): void {
  if (status !== 'succeeded')
    for (const child of openDescendants(node)) close(live, child, status, at);
  close(live, node, status, at, error);
}

/** A step path's last part: the step's id (`findings` in `research:findings`). */
function stepId(path: string): string {
  return path.slice(path.lastIndexOf(':') + 1);
}
