import { randomUUID } from 'node:crypto';
import type { LanguageModel, LanguageModelUsage } from 'ai';
import {
  BUDGET_REQUEST_TOOL,
  type ApprovalDecision,
  type ApprovalRequest,
  type BudgetAsk,
} from '../approvals/approval-request.js';
import type { ApprovalAnswer, DurablePlace, OutsideAnswer } from '../engine/durable-engine.js';
import { placeKey } from '../engine/durable-place.js';
import { WorkflowError } from '../errors/june-error.js';
import { gatedModel } from '../models/gated-model.js';
import { callCost, type ModelPrice } from '../models/price.js';
import { recordedPrice } from '../models/replayed-call.js';
import { usageTotal } from '../models/usage.js';
import type { TraceBudget } from '../trace/trace-node.js';
import { reachedCaps, type BudgetCounters, type BudgetEntry } from './budget-entry.js';
import type { RunFrame } from './run-state.js';
import type { RunServices } from './run-services.js';

/** Where a budget gate stands: the model calls of one step (or one guard's judge) and their budgets. */
export interface BudgetGateAt {
  services: RunServices;
  run: RunFrame;
  /** The budgets over the calls, outermost first. */
  budgets: readonly BudgetEntry[];
  /** The place of the calls (the step's, or a judge's `<step>@<guard>`). */
  place: DurablePlace;
  /** The step path the calls belong to, for requests and events. */
  step: string;
  /** The step's trace node: a budget's request and its events show there. */
  stepNode: string;
  /** The price the calls are made at (a recorded call's own price counts first). */
  price: ModelPrice | undefined;
  /**
   * Whether the gate counts each call's usage for its budgets. A judge's calls are counted
   * from its guard's decision record instead, which a replay gives without calling the judge.
   */
  count: boolean;
}

/**
 * `model` capped by the budgets over its calls: before each call, every budget whose spending
 * reached a cap asks to allow more (or fails the run, `onExceed="fail"`); after it, its usage
 * and cost count for every budget. Wrapped around the journaled model, so a resumed or
 * replayed run counts its recorded calls as the first run did, and gets a recorded answer to
 * a budget's request without asking again.
 */
export function budgetedModel(model: LanguageModel, at: BudgetGateAt): LanguageModel {
  if (at.budgets.length === 0) return model;
  return gatedModel(model, {
    before: () => checkBudgets(at),
    ...(at.count
      ? {
          after: (usage: LanguageModelUsage, metadata: unknown) =>
            countSpent(at.budgets, usage, callCost(usage, recordedPrice(metadata) ?? at.price)),
        }
      : {}),
  });
}

/** Adds one call's (or one judge's) usage and cost to each budget. */
export function countSpent(
  budgets: readonly BudgetEntry[],
  usage: Partial<LanguageModelUsage>,
  costUsd: number | undefined,
): void {
  const tokens = usageTotal(usage) ?? 0;
  for (const budget of budgets) {
    budget.spent.tokens += tokens;
    if (costUsd !== undefined) budget.spent.usd += costUsd;
  }
}

/** How many model calls each place had in this run: a budget's request is named by the call it stops. */
const callCounts = new WeakMap<RunServices, Map<string, number>>();

/**
 * Checks the budgets before one model call, outermost first: a budget whose spending reached
 * a cap fails the run (`onExceed="fail"`) or asks, once per reached cap, to allow one more
 * budget's worth; a denial fails the run. Requests of one budget are asked one at a time.
 *
 * @throws {WorkflowError} `budget-exceeded`.
 */
async function checkBudgets(at: BudgetGateAt): Promise<void> {
  let byPlace = callCounts.get(at.services);
  if (!byPlace) callCounts.set(at.services, (byPlace = new Map()));
  const counted = placeKey(at.place);
  const n = byPlace.get(counted) ?? 0;
  byPlace.set(counted, n + 1);
  const id = at.place.step.slice(at.place.step.lastIndexOf(':') + 1);
  for (const [index, budget] of at.budgets.entries()) {
    let asks = 0;
    while (reachedCaps(budget).length > 0) {
      const before = show(budget);
      if (budget.onExceed === 'fail') {
        emitBudget(at, budget, before, 'fail');
        throw stopRun(at, exceeded(budget, at, 'its onExceed is "fail"'));
      }
      // calls that reach a spent budget at once wait for one request, then check again
      if (budget.asking) {
        await budget.asking;
        continue;
      }
      emitBudget(at, budget, before, 'ask');
      const asking = askMore(at, budget, `${id}#${n}~budget.${index}.${asks++}`);
      budget.asking = asking.then(
        () => {},
        () => {},
      );
      const answer = await asking.finally(() => (budget.asking = undefined));
      if (!answer.approved) {
        emitBudget(at, budget, before, 'deny', answer.replayed);
        const why = answer.reason ? `: ${answer.reason}` : '';
        throw stopRun(at, exceeded(budget, at, `more was denied${why}`));
      }
      for (const key of ['tokens', 'usd'] as const)
        if (budget.cap[key] !== undefined) budget.cap[key] += budget.size[key] ?? 0;
      emitBudget(at, budget, before, 'allow', answer.replayed);
    }
  }
}

/** A budget's caps and spending as requests, events and errors show them. */
function show(budget: BudgetEntry): {
  cap: Partial<BudgetCounters>;
  spent: Partial<BudgetCounters>;
} {
  const spent: Partial<BudgetCounters> = {};
  if (budget.cap.tokens !== undefined) spent.tokens = budget.spent.tokens;
  if (budget.cap.usd !== undefined) spent.usd = roundUsd(budget.spent.usd);
  return { cap: { ...budget.cap }, spent };
}

/** USD to a tenth of a micro-dollar, so that sums of floats read (and record) the same every time. */
function roundUsd(usd: number): number {
  return Math.round(usd * 1e7) / 1e7;
}

/** `12,000 tokens and $0.50` */
export function countersText(counters: Partial<BudgetCounters>): string {
  const parts: string[] = [];
  if (counters.tokens !== undefined)
    parts.push(`${counters.tokens.toLocaleString('en-US')} tokens`);
  if (counters.usd !== undefined) parts.push(`$${counters.usd}`);
  return parts.join(' and ');
}

/**
 * Fails the whole run with `error`, as a guard that trips does: a composite tool does not
 * turn it into a tool error its caller's model reads, and a `<Catch>` does not catch it.
 */
function stopRun(at: BudgetGateAt, error: WorkflowError): WorkflowError {
  at.services.abort.abort(error);
  return error;
}

function exceeded(budget: BudgetEntry, at: BudgetGateAt, why: string): WorkflowError {
  const { cap, spent } = show(budget);
  return new WorkflowError(
    'budget-exceeded',
    `june: the budget "${budget.name}" (${budget.where}) is spent: the model calls beneath it spent ${countersText(spent)} of ${countersText(cap)}, and ${why}; the next model call of step "${at.step}" does not start.`,
    {
      details: { budget: budget.name, declaration: budget.declaration, cap, spent, step: at.step },
    },
  );
}

function emitBudget(
  at: BudgetGateAt,
  budget: BudgetEntry,
  shown: ReturnType<typeof show>,
  action: TraceBudget['action'],
  replayed?: boolean,
): void {
  at.services.log.emit({
    type: 'budget',
    runId: at.run.runId,
    step: at.step,
    budget: budget.name,
    declaration: budget.declaration,
    cap: shown.cap,
    spent: shown.spent,
    action,
    ...(replayed ? { replayed: true as const } : {}),
    nodeId: at.stepNode,
  });
}

/**
 * Asks, through the run's inbox and its durable engine, to allow one more budget's worth: an
 * approval request of its own (the tool {@link BUDGET_REQUEST_TOOL}, `request.budget` set)
 * under the call id `call` at the calls' place, so the engine records it (and its answer)
 * like any approval, and a resumed run gets the answer again.
 */
async function askMore(
  at: BudgetGateAt,
  budget: BudgetEntry,
  call: string,
): Promise<ApprovalDecision & { replayed?: boolean }> {
  const { services, run, place } = at;
  const { cap, spent } = show(budget);
  const asked: BudgetAsk = {
    name: budget.name,
    declaration: budget.declaration,
    cap,
    spent,
    more: { ...budget.size },
  };
  const request: ApprovalRequest = {
    id: `budget_${randomUUID()}`,
    tool: BUDGET_REQUEST_TOOL,
    input: { budget: budget.name, cap, spent, more: asked.more },
    step: at.step,
    toolCallId: call,
    key: [services.runId, ...(place.calls ?? []), call].join('/'),
    budget: asked,
  };
  const log = services.log;
  const node = { nodeId: log.nodeId(at.stepNode, `budget:${call}`), parentId: at.stepNode };
  // the request is a call of its own under the step: a page, Studio and the trace show its input
  log.emit({
    type: 'tool-call',
    runId: run.runId,
    step: at.step,
    toolCallId: call,
    tool: BUDGET_REQUEST_TOOL,
    input: request.input,
    ...node,
  });
  log.placeApproval(request.id, node);
  let replayed = false;
  const ask = (recorded?: ApprovalAnswer | ApprovalDecision) => {
    if (recorded) replayed = true;
    return services.approvals.request(request, run.signal, run.runId, recorded);
  };
  const durable = services.engine.durable;
  const decision = durable
    ? await durable.engine.approval({
        place,
        call,
        id: request.id,
        toolCallId: call,
        tool: BUDGET_REQUEST_TOOL,
        input: request.input,
        budget: asked,
        ask: () => ask(),
        replay: (recorded) => ask(recorded),
        answer: ({ source, ...given }: OutsideAnswer) =>
          services.approvals.answer(request.id, given, source ?? 'database'),
      })
    : await ask();
  endRequest(at, node, call, decision.approved ? asked.more : undefined);
  return { ...decision, replayed };
}

/** A budget's request node ends with its answer: what it allowed, or the denial. */
function endRequest(
  at: BudgetGateAt,
  node: { nodeId: string; parentId: string },
  call: string,
  allowed: BudgetAsk['more'] | undefined,
): void {
  const base = { runId: at.run.runId, step: at.step, toolCallId: call, tool: BUDGET_REQUEST_TOOL };
  if (allowed) at.services.log.emit({ type: 'tool-result', ...base, output: { allowed }, ...node });
  else at.services.log.emit({ type: 'tool-denied', ...base, ...node });
}
