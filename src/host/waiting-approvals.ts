import { readRunFile } from './run-folder.js';
import type { CapabilityProvenance } from '../capabilities/scope.js';
import { childRunOf } from '../trace/composite-result.js';
import type { AskedQuestion, BudgetAsk, GuardEscalation } from '../approvals/approval-request.js';
import type { Trace, TraceNode } from '../trace/trace-node.js';

/**
 * A tool call that waits for a person's answer, as Studio shows it (`GET
 * /api/runs/<runId>/approvals`):
 * - `key`: the call's key (`ApprovalRequest.key`), which an answer names;
 * - `requestId`: the request's id in the process that asked last;
 * - `tool`, `input`: the call; `step`: its step path (`research:findings`);
 * - `provenance`: where the agent got the tool (its declaration, and the bundles and wrappers
 *   it came through), absent when the trace does not say (a tool of the `tools` prop);
 * - `kind`, `question`: `'question'` and what it asks (prompt, answer schema) for a
 *   `<Question>`, which is answered with a value (`output`) or denied, never approved;
 * - `guard`: the `<Guard>` that escalated the call, and why, to show whoever answers.
 */
export interface WaitingApproval {
  key: string;
  requestId: string;
  tool: string;
  input: unknown;
  step: string;
  toolCallId?: string;
  provenance?: CapabilityProvenance;
  kind?: 'question';
  question?: AskedQuestion;
  guard?: GuardEscalation;
  /** The `<Budget>` that asks to allow more: what it spent, its cap, and what an approval adds. */
  budget?: BudgetAsk;
  /** `pending` while the process that asked is up; `withdrawn` once it stopped. */
  status: 'pending' | 'withdrawn';
}

/**
 * The approvals a run waits for, and who can answer them:
 * - `live`: its process is up and takes Studio's answers (`june run --approve studio`), or
 *   the database's worker does (`june studio --database`);
 * - `stopped`: its process stopped; an answer is recorded and the run resumed by Studio
 *   (`resumable`), or left for `june run --resume` (not resumable: `notResumable` says why);
 * - `none`: it waits for nothing.
 */
export interface RunApprovals {
  runId: string;
  state: 'live' | 'stopped' | 'none';
  resumable: boolean;
  /** Why Studio will not resume the stopped run itself (a sentence fragment), when it will not. */
  notResumable?: string;
  waiting: WaitingApproval[];
  /**
   * Calls approved while another call of their model turn still waits (a database's runs):
   * they wait too, and run once every call of the turn is answered. Nothing to answer;
   * absent when none.
   */
  held?: WaitingApproval[];
}

/**
 * The tool calls of a trace whose approval has a key and no answer in it (`pending`, or
 * `withdrawn` when the process stopped), with their step path and the tool's provenance. The
 * tree is walked without recursion.
 */
export function approvalsInTrace(trace: Trace): WaitingApproval[] {
  return callsInTrace(trace, (node) =>
    node.approval?.status === 'pending' || node.approval?.status === 'withdrawn'
      ? node.approval.status
      : undefined,
  );
}

/**
 * The tool calls of a trace approved but held (the node still `waiting`): a step goes on
 * once every call of its model turn is answered, so an approved call waits for the others.
 */
export function heldInTrace(trace: Trace): WaitingApproval[] {
  return callsInTrace(trace, (node) =>
    node.approval?.status === 'approved' && node.status === 'waiting' ? 'pending' : undefined,
  );
}

/** The tool calls with an approval key that `pick` gives a status, in the order of the tree. */
function callsInTrace(
  trace: Trace,
  pick: (node: TraceNode) => WaitingApproval['status'] | undefined,
): WaitingApproval[] {
  const found: WaitingApproval[] = [];
  const stack: { node: TraceNode; step: string; tools?: CapabilityProvenance[] }[] = [
    { node: trace.root, step: '' },
  ];
  while (stack.length > 0) {
    const { node, step, tools } = stack.pop()!;
    const here = {
      step: node.kind === 'step' && node.step !== undefined ? node.step : step,
      tools: node.kind === 'agent' ? node.capabilities : tools,
    };
    const approval = node.approval;
    const status = node.kind === 'tool' && approval?.key !== undefined ? pick(node) : undefined;
    if (status !== undefined) {
      const provenance = here.tools?.find((tool) => tool.name === node.name);
      found.push({
        key: approval!.key!,
        requestId: approval!.id,
        tool: node.name,
        input: node.input,
        step: here.step,
        status,
        ...(node.toolCallId !== undefined ? { toolCallId: node.toolCallId } : {}),
        ...(provenance ? { provenance } : {}),
        ...(approval!.kind === 'question' && approval!.question
          ? { kind: 'question' as const, question: approval!.question }
          : {}),
        ...(approval!.guard ? { guard: approval!.guard } : {}),
        ...(approval!.budget ? { budget: approval!.budget } : {}),
      });
    }
    // a composite call's child run (in its output while it runs) asks under its own steps
    const child = childRunOf(node);
    if (child) stack.push({ node: child.root, ...here });
    for (let i = node.children.length - 1; i >= 0; i--)
      stack.push({ node: node.children[i]!, ...here });
  }
  return found;
}

/**
 * The keys of the approval requests a run's journal (`<folder>/journal.jsonl`) holds without
 * an answer; undefined when the run has no readable journal. Lines that do not parse (one
 * being written) are skipped.
 */
export async function unansweredInJournal(
  folder: string,
  runId: string,
): Promise<Set<string> | undefined> {
  let text: string | undefined;
  try {
    text = await readRunFile(folder, 'journal.jsonl');
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  const keyOf = (record: { calls?: string[]; call: string }) =>
    [runId, ...(record.calls ?? []), record.call].join('/');
  const waiting = new Set<string>();
  for (const line of text.split('\n')) {
    let record: { type?: string; call?: string; calls?: string[] };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue;
    }
    if (typeof record.call !== 'string') continue;
    const key = keyOf(record as { calls?: string[]; call: string });
    if (record.type === 'approval-request') waiting.add(key);
    else if (record.type === 'approval-answer') waiting.delete(key);
  }
  return waiting;
}

/**
 * The tool's schemas (JSON Schema) that the run's journal (in `folder`) recorded with its
 * latest request for the call `key`: `input` and `output`, each absent when the tool has
 * none in that form or the journal was written before requests kept them.
 */
export async function requestSchemasInJournal(
  folder: string,
  runId: string,
  key: string,
): Promise<{ input?: Record<string, unknown>; output?: Record<string, unknown> }> {
  let text: string | undefined;
  try {
    text = await readRunFile(folder, 'journal.jsonl');
  } catch {
    return {};
  }
  let found: { input?: Record<string, unknown>; output?: Record<string, unknown> } = {};
  for (const line of (text ?? '').split('\n')) {
    if (!line.includes('"approval-request"')) continue;
    let record: {
      type?: string;
      call?: unknown;
      calls?: string[];
      inputSchema?: unknown;
      outputSchema?: unknown;
    };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue;
    }
    if (record.type !== 'approval-request' || typeof record.call !== 'string') continue;
    if ([runId, ...(record.calls ?? []), record.call].join('/') !== key) continue;
    const object = (value: unknown) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : undefined;
    const input = object(record.inputSchema);
    const output = object(record.outputSchema);
    found = { ...(input ? { input } : {}), ...(output ? { output } : {}) };
  }
  return found;
}

/**
 * How many approvals a run waits for: the calls {@link approvalsInTrace} finds that its
 * journal (in `folder`) holds without an answer; without a journal, the ones still pending.
 */
export async function countWaiting(trace: Trace, folder: string): Promise<number> {
  const found = approvalsInTrace(trace);
  if (found.length === 0) return 0;
  const unanswered = await unansweredInJournal(folder, trace.runId);
  return found.filter((approval) =>
    unanswered ? unanswered.has(approval.key) : approval.status === 'pending',
  ).length;
}
