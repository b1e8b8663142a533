import type { GuardCheckKind, GuardProps } from '../components/guard.js';
import type { JuneElement } from '../elements/element.js';
import { locationSuffix, notation } from '../elements/notation.js';
import { WorkflowError } from '../errors/june-error.js';
import type { BudgetEntry } from './budget-entry.js';

/** One `<Guard>` over a part of the tree, as the walk carries it down. */
export interface GuardEntry {
  kind: 'guard';
  name: string;
  /** Its declaration as provenance writes it: `<Guard name="no-prod">`. */
  declaration: string;
  /** Its declaration with where it stands, for errors: `<Guard name="no-prod"> at flow.tsx:9:5`. */
  where: string;
  props: GuardProps;
  /** What it checks. */
  on: ReadonlySet<GuardCheckKind>;
}

const GUARD_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const KINDS: readonly GuardCheckKind[] = ['tool-input', 'output', 'user-input'];

/**
 * The entry of a `<Guard>` element, its props checked.
 * @throws {WorkflowError} `guard-invalid` without a valid name, with neither or both of
 *   `check` and `judge`, or with an `on` that lists something else than what a guard checks.
 */
export function guardEntry(element: JuneElement): GuardEntry {
  const props = element.props as GuardProps;
  const name = props.name as unknown;
  const location = locationSuffix(element.source);
  if (typeof name !== 'string' || !GUARD_NAME.test(name)) {
    throw new WorkflowError(
      'guard-invalid',
      `june: <Guard>${location} needs a name: letters, digits, "-" and "_", starting with a letter (got ${typeof name === 'string' ? JSON.stringify(name) : String(name)}).`,
    );
  }
  const declaration = notation(element, ['name']);
  const where = `${declaration}${location}`;
  const judge = props.judge as unknown;
  const hasCheck = typeof props.check === 'function';
  const hasJudge =
    typeof judge === 'object' &&
    judge !== null &&
    (judge as { model?: unknown }).model !== undefined &&
    typeof (judge as { instructions?: unknown }).instructions === 'string';
  if (hasCheck === hasJudge) {
    throw new WorkflowError(
      'guard-invalid',
      `june: ${where} needs exactly one way to decide: check={(subject) => ...} or judge={{ model, instructions }}${hasCheck ? ', not both' : ''}.`,
    );
  }
  const on = props.on ?? ['tool-input', 'output'];
  const unknown = on.filter((kind) => !KINDS.includes(kind));
  if (!Array.isArray(on) || on.length === 0 || unknown.length > 0) {
    throw new WorkflowError(
      'guard-invalid',
      `june: ${where} has on={${JSON.stringify(on)}}; a guard checks one or more of ${KINDS.map((k) => `"${k}"`).join(', ')}.`,
    );
  }
  return { kind: 'guard', name, declaration, where, props, on: new Set(on) };
}

/**
 * One policy over a part of the tree: a `<Guard>` or a `<Budget>`. The walk carries both in
 * one list, outermost first, down the evaluation context, agents' frames, child runs' frames
 * and the calls of composite tools; each reader takes its own kind.
 */
export type PolicyEntry = GuardEntry | BudgetEntry;

/** The guards of a list of policies, in order. */
export function guardsIn(policies: readonly PolicyEntry[]): GuardEntry[] {
  return policies.filter((entry): entry is GuardEntry => entry.kind === 'guard');
}

/** The budgets of a list of policies, in order (outermost first). */
export function budgetsIn(policies: readonly PolicyEntry[]): BudgetEntry[] {
  return policies.filter((entry): entry is BudgetEntry => entry.kind === 'budget');
}
