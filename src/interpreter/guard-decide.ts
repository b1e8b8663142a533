import type { LanguageModelUsage } from 'ai';
import type {
  GuardAction,
  GuardCheckKind,
  GuardDecision,
  GuardSubject,
} from '../components/guard.js';
import { JuneError, WorkflowError } from '../errors/june-error.js';
import { errorMessage } from '../errors/error-message.js';
import { plainJson } from '../json/json-form.js';
import { sumUsage } from '../models/usage.js';
import { budgetsIn, type GuardEntry, type PolicyEntry } from './guard-entry.js';
import { countSpent } from './budget-gate.js';
import { judgeDecision } from './guard-judge.js';
import type { GuardAt } from './guard-at.js';

/** One guard's decision, as the journal records it and the trace shows it. */
export interface GuardRecord {
  guard: string;
  declaration: string;
  check: GuardCheckKind;
  action: GuardAction;
  reason?: string;
  /** A judge's model calls. */
  usage?: LanguageModelUsage;
  /** What a judge's model calls cost, in USD, when its model has a price. */
  costUsd?: number;
}

/** What the guards over something decided: `allow`, or the first other decision and its guard. */
export interface GuardVerdict {
  action: GuardAction;
  reason?: string;
  guard?: GuardEntry;
  /** Every guard's decision, outermost first, up to the first that did not allow. */
  records: GuardRecord[];
  /** True when the run's journal gave the decisions again (no guard was asked). */
  replayed: boolean;
}

/** The tool name a guard decision's record has in the journal (never a tool of the workflow). */
export const GUARD_RECORD_TOOL = 'june-guards';

/**
 * Asks the guards over `subject` that check its kind, outermost first, until one does not
 * allow. Their decisions are one record of the run's durable engine (a tool call of
 * {@link GUARD_RECORD_TOOL} at `at.place`, `at.call`): a resumed or replayed run gets them
 * again and asks no guard (a judge's model is not called). A judge's usage counts for the run.
 *
 * @throws {WorkflowError} `guard-check-failed` when a guard's function or judge throws or
 *   answers something else than a decision (recorded, so a resume fails the same way).
 */
export async function decideGuards(
  guards: readonly PolicyEntry[],
  subject: GuardSubject,
  at: GuardAt,
): Promise<GuardVerdict> {
  const asked = guards.filter(
    (guard): guard is GuardEntry => guard.kind === 'guard' && guard.on.has(subject.kind),
  );
  if (asked.length === 0) return { action: 'allow', records: [], replayed: false };
  let ran = false;
  const work = async (): Promise<GuardRecord[]> => {
    ran = true;
    const records: GuardRecord[] = [];
    for (const guard of asked) {
      // a judge's calls are capped by the budgets over the step (outside the guard's own)
      const record = await decideOne(guard, subject, { ...at, budgets: budgetsIn(guards) });
      records.push(record);
      if (record.action !== 'allow') break;
    }
    return records;
  };
  const durable = at.services.engine.durable;
  const records = (
    durable
      ? await durable.toolCall(
          {
            place: at.place,
            call: at.call,
            tool: GUARD_RECORD_TOOL,
            input: plainJson(subjectRecord(subject)),
            toolCallId: at.toolCallId,
            composite: false,
            abortSignal: at.signal,
          },
          work,
          () => {},
        )
      : await work()
  ) as GuardRecord[];
  // a judge's calls count for the run and for the budgets over the step, recorded or made alike
  for (const record of records) {
    if (!record.usage) continue;
    at.run.usage = sumUsage(at.run.usage, record.usage);
    countSpent(budgetsIn(guards), record.usage, record.costUsd);
  }
  const last = records[records.length - 1];
  const verdict: GuardVerdict = { action: 'allow', records, replayed: !ran };
  if (last && last.action !== 'allow') {
    verdict.action = last.action;
    if (last.reason !== undefined) verdict.reason = last.reason;
    const guard = asked.find((entry) => entry.name === last.guard);
    if (guard) verdict.guard = guard;
  }
  return verdict;
}

/** What a decision record says it decided about: the subject without its step and agent (the place says those). */
function subjectRecord(subject: GuardSubject): unknown {
  const { kind, tool, input, output } = subject;
  return {
    kind,
    ...(tool !== undefined ? { tool } : {}),
    ...(input !== undefined ? { input } : {}),
    ...(output !== undefined ? { output } : {}),
  };
}

async function decideOne(
  guard: GuardEntry,
  subject: GuardSubject,
  at: GuardAt,
): Promise<GuardRecord> {
  const base = { guard: guard.name, declaration: guard.declaration, check: subject.kind };
  try {
    if (guard.props.judge) {
      const { decision, usage, costUsd } = await judgeDecision(guard, subject, at);
      return {
        ...base,
        ...checkedDecision(decision, guard),
        usage,
        ...(costUsd !== undefined ? { costUsd } : {}),
      };
    }
    return { ...base, ...checkedDecision(await guard.props.check!(subject), guard) };
  } catch (error) {
    if (JuneError.isInstance(error)) throw error;
    throw new WorkflowError(
      'guard-check-failed',
      `june: ${guard.where} failed while checking ${describeSubject(subject)}: ${errorMessage(error)}`,
      { cause: error },
    );
  }
}

const ACTIONS: readonly GuardAction[] = ['allow', 'reject', 'trip', 'escalate'];

/**
 * A guard's answer as a decision: `undefined` allows, an action alone decides without a reason.
 * @throws {WorkflowError} `guard-check-failed` for anything else.
 */
function checkedDecision(given: unknown, guard: GuardEntry): GuardDecision {
  if (given === undefined) return { action: 'allow' };
  if (typeof given === 'string' && ACTIONS.includes(given as GuardAction))
    return { action: given as GuardAction };
  const decision = given as Partial<GuardDecision> | null;
  if (
    typeof decision === 'object' &&
    decision !== null &&
    ACTIONS.includes(decision.action as GuardAction) &&
    (decision.reason === undefined || typeof decision.reason === 'string')
  ) {
    return {
      action: decision.action!,
      ...(decision.reason !== undefined && decision.reason !== ''
        ? { reason: decision.reason }
        : {}),
    };
  }
  throw new WorkflowError(
    'guard-check-failed',
    `june: ${guard.where} answered ${JSON.stringify(given) ?? String(given)}; a guard answers "allow", "reject", "trip", "escalate", or { action, reason }.`,
  );
}

/** What a guard checked, in words: `the call of "deploy" in step "ship"`. */
export function describeSubject(subject: Pick<GuardSubject, 'kind' | 'tool' | 'step'>): string {
  if (subject.kind === 'tool-input')
    return `the call of "${subject.tool}" in step "${subject.step}"`;
  if (subject.kind === 'output') return `the output of step "${subject.step}"`;
  return `the prompt of step "${subject.step}"`;
}
