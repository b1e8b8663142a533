import type { LanguageModel } from 'ai';
import { builtin } from '../elements/builtin.js';
import type { JuneNode } from '../elements/element.js';

/** What a guard can check: a tool call's input, a step's output, a step's prompt. */
export type GuardCheckKind = 'tool-input' | 'output' | 'user-input';

/** What a guard decides about what passes through it. */
export type GuardAction = 'allow' | 'reject' | 'trip' | 'escalate';

/**
 * A guard's decision: its action and, for anything but `allow`, why. The reason is what the
 * model reads on a rejected call, what a tripped run's error says, and what whoever answers
 * an escalation sees.
 */
export interface GuardDecision {
  action: GuardAction;
  reason?: string;
}

/**
 * What a guard is asked about:
 * - `kind: 'tool-input'`: a tool call about to run: `tool` (its name as the model called it)
 *   and `input` (the model's input);
 * - `kind: 'output'`: a step's result before it is returned: `output`;
 * - `kind: 'user-input'`: the prompt a step brings in: `input`.
 *
 * `step` is the step's path (`research:findings` inside the composite tool `research`) and
 * `agent` the agent's path.
 */
export interface GuardSubject {
  kind: GuardCheckKind;
  step: string;
  agent: string;
  tool?: string;
  input?: unknown;
  output?: unknown;
}

/** A guard's function: a decision, an action alone, or `undefined` for `allow`. */
export type GuardCheck = (
  subject: GuardSubject,
) =>
  | GuardDecision
  | GuardAction
  | undefined
  | void
  | Promise<GuardDecision | GuardAction | undefined | void>;

/**
 * An LLM judge: `model` is asked, with `instructions` as its system prompt, to decide about
 * the subject (given as JSON). It answers a {@link GuardDecision}. Its calls count toward the
 * run's usage and are recorded by the run's journal under the guard's place.
 */
export interface GuardJudge {
  model: LanguageModel;
  instructions: string;
}

/** Props of {@link Guard}. */
export interface GuardProps {
  /** Names the guard in decisions, errors, traces and approvals: letters, digits, `-` and `_`. */
  name: string;
  /** Decides with a function. Give `check` or `judge`. */
  check?: GuardCheck;
  /** Decides with a model call. Give `check` or `judge`. */
  judge?: GuardJudge;
  /** What it checks. @default ['tool-input', 'output'] */
  on?: readonly GuardCheckKind[];
  /** The part of the workflow it covers: agents, steps, components, other guards. */
  children?: JuneNode;
}

/**
 * A policy over everything beneath it in the tree: every tool call of its steps (nested
 * agents', composite tools' and defined agents' inner runs, MCP tools included) before the
 * tool runs, every step's output before it is returned, and, with `on={['user-input']}`, a
 * step's prompt. It decides `allow`, `reject` (the call does not run; the model reads the
 * reason as its result), `trip` (the run fails with `guard-tripped`) or `escalate` (the call
 * waits for a person's approval, with the reason shown). Nested guards all apply, outer first.
 *
 * A guard is not a capability wrapper: it holds agents and steps, not tools, and it reaches
 * into nested agents. See docs/guards.md.
 *
 * @throws {WorkflowError} `guard-invalid` without a valid name, or without exactly one of
 *   `check` and `judge`.
 * @example
 * ```tsx
 * <Guard name="no-prod" check={({ input }) => (input?.env === 'prod' ? { action: 'escalate', reason: 'prod deploy' } : 'allow')}>
 *   <Agent model={model}>...</Agent>
 * </Guard>
 * ```
 */
export const Guard = builtin('guard', 'Guard', (_props: GuardProps): JuneNode => null);
