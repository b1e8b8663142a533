/**
 * A tool call waiting for a person's answer.
 * - `id`: answer with `handle.approve(id)` or `handle.deny(id, reason)`;
 * - `tool`: the tool's name as the model called it; `input`: the model's input, as JSON;
 * - `step`: the step path from the outermost run, joined by `:` (`research:findings`);
 * - `toolCallId`: the provider's id for the call;
 * - `key`: the call's key, as `toolCallContext().key` gives it (`<runId>/<calls…>/<call>`,
 *   e.g. `20261130-120301-3fa94c1e27b0/release#0.0`). Unlike `id` (new every time the call is
 *   asked about), it names the same call on every resume of a run with a journal, so an
 *   answer given after the process stopped can find its request again (see `june/web`);
 * - `kind`: `'question'` when the call is a `<Question>` a person answers with a value
 *   (then `question` says what to ask and what an answer must fit); absent for a tool call
 *   that waits for approval, as every request stored before questions existed is;
 * - `question`: the question's text, the JSON Schema of its answer, and its timeout (see
 *   {@link AskedQuestion}); present exactly when `kind` is `'question'`.
 *
 * A question is answered with `handle.respond(id, answer)` (or `{ approved: false, output:
 * answer }` from a source or a policy) or denied with a reason the model reads; approving
 * one is refused with `question-answer-missing`.
 */
export interface ApprovalRequest {
  id: string;
  tool: string;
  input: unknown;
  step: string;
  toolCallId: string;
  key?: string;
  kind?: 'question';
  question?: AskedQuestion;
  /**
   * Set when a `<Guard>` escalated the call: which guard, its declaration, and why. Show the
   * reason to whoever answers. An `onApproval` policy is not asked about such a request
   * unless the run says so (`RunOptions.guardEscalations: 'on-approval'`).
   */
  guard?: GuardEscalation;
  /**
   * Set when a `<Budget>`'s spending reached its cap before a model call: which budget, what
   * its calls spent, its cap, and how much more an approval allows (`more`). Approving raises
   * the cap by `more`; denying fails the run with `budget-exceeded`. Like a guard's
   * escalation, an `onApproval` policy is not asked about it unless the run says so
   * (`RunOptions.guardEscalations: 'on-approval'`).
   */
  budget?: BudgetAsk;
}

/** The tool name a `<Budget>`'s request has in the inbox, the trace and the journal (never a tool of the workflow). */
export const BUDGET_REQUEST_TOOL = 'june-budget';

/** What a `<Budget>`'s request asks (see {@link ApprovalRequest.budget}). */
export interface BudgetAsk {
  /** The budget's name: `research`. */
  name: string;
  /** Its declaration: `<Budget name="research" tokens={20000}>`. */
  declaration: string;
  /** What the model calls beneath it spent, in the units it caps. */
  spent: { tokens?: number; usd?: number };
  /** Its caps now. */
  cap: { tokens?: number; usd?: number };
  /** What an approval adds to the caps: the budget's own size again. */
  more: { tokens?: number; usd?: number };
}

/** The `<Guard>` that made a call wait for approval (see {@link ApprovalRequest.guard}). */
export interface GuardEscalation {
  /** The guard's name: `no-prod`. */
  name: string;
  /** Its declaration: `<Guard name="no-prod">`. */
  declaration: string;
  reason?: string;
}

/**
 * What a question asks, as every request, event, trace and record of it carries it: enough
 * for any UI (a terminal prompt, a form, a chat message) to ask a person and check the answer.
 * - `prompt`: the question as a person reads it (the `<Question prompt>`, else the text the
 *   model gave in the call);
 * - `answerSchema`: the JSON Schema (draft-07) of an answer, made from the `<Question
 *   answer>` schema: an `enum` for a choice, `number`, `string`, an `object` for a form;
 * - `timeoutMs`: how long the question waits, in milliseconds, before it is settled by
 *   itself (absent: it waits until answered, denied or withdrawn);
 * - `onTimeout`: with `timeoutMs`, the answer given when it passes (recorded as automatic,
 *   through the source `timeout`); absent: the question is denied then, and the model reads
 *   the reason `no answer within <timeoutMs> ms`.
 *
 * @example
 * ```ts
 * const asked: AskedQuestion = {
 *   prompt: 'Which environment?',
 *   answerSchema: { type: 'string', enum: ['staging', 'prod'] },
 *   timeoutMs: 600_000,
 *   onTimeout: { answer: 'staging' },
 * };
 * ```
 */
export interface AskedQuestion {
  prompt: string;
  answerSchema: Record<string, unknown>;
  timeoutMs?: number;
  onTimeout?: { answer: unknown };
}

/**
 * True for a request that is a person's to answer whatever a blanket policy says: a call a
 * `<Guard>` escalated, or a `<Budget>` asking to allow more. An `onApproval` policy and
 * `june run --approve all`/`none` answer it only when the run says so
 * (`guardEscalations: 'on-approval'`, `--approve-escalations`).
 */
export function isEscalation(request: ApprovalRequest): boolean {
  return request.guard !== undefined || request.budget !== undefined;
}

/** `the budget "research" spent 12,000 tokens of 10,000; allow 10,000 tokens more?` */
export function budgetQuestion(budget: BudgetAsk): string {
  return `the budget "${budget.name}" spent ${amounts(budget.spent)} of ${amounts(budget.cap)}; allow ${amounts(budget.more)} more?`;
}

function amounts(counters: { tokens?: number; usd?: number }): string {
  const parts: string[] = [];
  if (counters.tokens !== undefined)
    parts.push(`${counters.tokens.toLocaleString('en-US')} tokens`);
  if (counters.usd !== undefined) parts.push(`$${counters.usd}`);
  return parts.join(' and ');
}

/**
 * A request that is a question (see {@link ApprovalRequest.kind}).
 *
 * @example
 * ```ts
 * if (isQuestion(request)) showForm(request.question.prompt, request.question.answerSchema);
 * ```
 */
export function isQuestion(
  request: ApprovalRequest,
): request is ApprovalRequest & { kind: 'question'; question: AskedQuestion } {
  return request.kind === 'question' && request.question !== undefined;
}

/**
 * An answer to an {@link ApprovalRequest}. A `reason` on a denial reaches the model.
 * - `input` (with `approved: true`): approve the call with this input instead of the
 *   model's (an edit). The tool's input schema checks it when it is given; the tool runs
 *   with it, and the model's conversation shows the call with it (see docs/approvals.md);
 * - `output` (with `approved: false`): answer instead of the tool: it does not run, and the
 *   model reads `output` as the tool's result. The tool's output schema, when it has one,
 *   checks it when it is given.
 *
 * Both are JSON values; `undefined` means none was given.
 */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
  input?: unknown;
  output?: unknown;
}

/**
 * What an {@link ApprovalPolicy} may return besides `true`/`false`: a decision, and, when a
 * person gave it (a chat app that asked someone), who (`answeredBy`), when (`answeredAt`,
 * ISO 8601 or a `Date`; default now) and through what (`source`, such as `'slack'`; default
 * `'on-approval'`). A decision with `answeredBy` is recorded as a person's answer, not as
 * automatic, unless `automatic: true` says the policy decided by itself and only names itself.
 */
export interface ApprovalPolicyAnswer extends ApprovalDecision {
  answeredBy?: string;
  answeredAt?: string | Date;
  source?: string;
  automatic?: boolean;
}

/**
 * An approval policy (`run(el, { onApproval })`), asked first about every request: return
 * `true`/`false` or a decision to answer, or `undefined` to leave the request to a person
 * (`handle.approve`/`deny`, an approval source). Its own decisions are recorded as automatic,
 * through `policy`; a decision that names who answered (`answeredBy`, see
 * {@link ApprovalPolicyAnswer}) is recorded as that person's.
 *
 * @example
 * ```ts
 * // automatic: everything but deploys
 * const policy: ApprovalPolicy = (request) => request.tool !== 'deploy' || undefined;
 * // a person's answer, asked in a chat app
 * const asked: ApprovalPolicy = async (request) => {
 *   const reply = await chat.ask(`May I run ${request.tool}?`);
 *   return { approved: reply.yes, answeredBy: reply.user, source: 'chat' };
 * };
 * ```
 */
export type ApprovalPolicy = (
  request: ApprovalRequest,
) =>
  boolean | ApprovalPolicyAnswer | undefined | Promise<boolean | ApprovalPolicyAnswer | undefined>;
