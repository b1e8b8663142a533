import type { BudgetExceed, BudgetProps } from '../components/budget.js';
import type { GuardCheckKind } from '../components/guard.js';
import type { JuneElement } from '../elements/element.js';
import { locationSuffix, notation } from '../elements/notation.js';
import { WorkflowError } from '../errors/june-error.js';

/** What a budget's calls spent, and what it allows now (its caps, raised by each "allow"). */
export interface BudgetCounters {
  tokens: number;
  usd: number;
}

/**
 * One `<Budget>` over a part of the tree, as the walk carries it down with the guards (one
 * list of policies, outermost first): its caps and what the model calls beneath it spent.
 * It checks nothing a guard checks (`on` is empty), so a guard's code passes it by.
 */
export interface BudgetEntry {
  kind: 'budget';
  name: string;
  /** Its declaration as provenance writes it: `<Budget name="research" tokens={1000}>`. */
  declaration: string;
  /** Its declaration with where it stands, for errors. */
  where: string;
  on: ReadonlySet<GuardCheckKind>;
  onExceed: BudgetExceed;
  /** The size one "allow" adds: the budget's own `tokens` and `usd`. */
  size: Partial<BudgetCounters>;
  /** The caps now: the budget's own, raised by each "allow". */
  cap: Partial<BudgetCounters>;
  /** What the model calls beneath it spent, from each call's (journaled) usage and price. */
  spent: BudgetCounters;
  /** Settles once the request for more waiting now is answered; other calls wait for it. */
  asking?: Promise<void>;
}

const NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * The entry of a `<Budget>` element, its props checked; a fresh one (counters at 0) per
 * evaluation of the element.
 * @throws {WorkflowError} `budget-invalid` with neither `tokens` nor `usd`, with one that is
 *   not a positive number, with a name that is not one, or an `onExceed` other than `ask`/`fail`.
 */
export function budgetEntry(element: JuneElement): BudgetEntry {
  const props = element.props as BudgetProps;
  const location = locationSuffix(element.source);
  const declaration = notation(element, ['name', 'tokens', 'usd']);
  const where = `${declaration}${location}`;
  const name = (props.name as unknown) ?? 'budget';
  if (typeof name !== 'string' || !NAME.test(name))
    throw new WorkflowError(
      'budget-invalid',
      `june: ${where} has the name ${JSON.stringify(name) ?? String(name)}; a budget's name is letters, digits, "-" and "_", starting with a letter.`,
    );
  const size: Partial<BudgetCounters> = {};
  for (const key of ['tokens', 'usd'] as const) {
    const value = props[key] as unknown;
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      throw new WorkflowError(
        'budget-invalid',
        `june: ${where} has ${key}={${JSON.stringify(value) ?? String(value)}}; a budget's ${key} is a number above 0.`,
      );
    size[key] = value;
  }
  if (size.tokens === undefined && size.usd === undefined)
    throw new WorkflowError(
      'budget-invalid',
      `june: ${where} caps nothing; give it tokens={...}, usd={...} or both.`,
    );
  const onExceed = (props.onExceed as unknown) ?? 'ask';
  if (onExceed !== 'ask' && onExceed !== 'fail')
    throw new WorkflowError(
      'budget-invalid',
      `june: ${where} has onExceed=${JSON.stringify(onExceed) ?? String(onExceed)}; it is "ask" or "fail".`,
    );
  return {
    kind: 'budget',
    name,
    declaration,
    where,
    on: new Set(),
    onExceed,
    size,
    cap: { ...size },
    spent: { tokens: 0, usd: 0 },
  };
}

/** The caps of `budget` that its spending reached: `tokens`, `usd`, or none. */
export function reachedCaps(budget: BudgetEntry): Array<keyof BudgetCounters> {
  const reached: Array<keyof BudgetCounters> = [];
  for (const key of ['tokens', 'usd'] as const) {
    const cap = budget.cap[key];
    if (cap !== undefined && budget.spent[key] >= cap) reached.push(key);
  }
  return reached;
}
