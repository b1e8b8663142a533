import type { ErrorData } from '../errors/error-data.js';
import type { LanguageModelUsage } from 'ai';
import type { CapabilityProvenance } from '../capabilities/scope.js';
import type { AskedQuestion, BudgetAsk, GuardEscalation } from '../approvals/approval-request.js';
import type { GuardAction, GuardCheckKind } from '../components/guard.js';
import type { ModelPrice } from '../models/price.js';

/**
 * What failed inside a run without failing it, counted over the whole tree, child runs
 * included: `tools`, tool calls that failed (a tool that threw, a composite tool whose child
 * run failed: the calling model saw an error and went on); `caught`, failures a `<Catch>`
 * caught (each failed attempt).
 */
export interface TraceFailures {
  tools: number;
  caught: number;
}

/** The kinds of node in a trace tree. */
/**
 * `catch` nodes are the attempts (and fallback) of a `<Catch>`; a `parallel` node is a
 * `<Parallel>`, its children its `branch` nodes.
 */
export type TraceNodeKind =
  'run' | 'agent' | 'step' | 'model' | 'tool' | 'catch' | 'parallel' | 'branch';

/** Where a node stands: running, or how it ended. `denied` is a tool call a person refused. */
export type TraceStatus = 'running' | 'waiting' | 'succeeded' | 'failed' | 'aborted' | 'denied';

/** An error as a trace keeps it: plain data from `errorData` (name, message, code, and a `journal-mismatch`'s comparison; no blame). */
export type TraceError = Omit<ErrorData, 'blame'>;

/** The approval a tool call waited for, and its answer. */
export interface TraceApproval {
  id: string;
  /**
   * The call's key (`ApprovalRequest.key`): unlike `id`, the same on every resume of the run,
   * so an answer given after the process stopped finds its call again. Absent without a journal.
   */
  key?: string;
  /**
   * `'question'` when the call is a `<Question>`: `question` is what it asked (prompt, the
   * JSON Schema of an answer, timeout), and its answer is `output` (`responded`). Absent for
   * a tool call's approval.
   */
  kind?: 'question';
  question?: AskedQuestion;
  /**
   * `responded`: a person answered instead of the tool, which did not run; the model read
   * `output` as its result.
   */
  status: 'pending' | 'approved' | 'denied' | 'responded' | 'withdrawn';
  reason?: string;
  /** Approved with this input instead of the model's (the node's `input`): the call ran with it. */
  input?: unknown;
  /** The answer given instead of the tool (`responded`), which the model read as its result. */
  output?: unknown;
  /** True when an `onApproval` policy (or `june run --approve`) answered, not a person. */
  automatic?: boolean;
  /** True when the answer came from the run's journal (a resumed or replayed run). */
  replayed?: boolean;
  /** Through which way the answer came (`terminal`, `studio`, `web`, `database`, `policy`, a source's own name). */
  source?: string;
  /** Who answered, as the source named them. */
  answeredBy?: string;
  /** When the answer was given, ISO 8601: where the wait for it ended (absent in traces written before). */
  answeredAt?: string;
  /** The `<Guard>` that escalated the call to this approval, with its reason. */
  guard?: GuardEscalation;
  /** The `<Budget>` that asked to allow more: what it spent, its cap, and what an approval adds. */
  budget?: BudgetAsk;
}

/**
 * One decision of a `<Guard>`, as the node it concerns records it (a tool call node: about
 * its input; a step node: about its output or its prompt): the guard's name and declaration,
 * what it checked, its action and reason; `replayed` when the run's journal gave the decision
 * again (its judge was not asked); `usage` for a judge's model calls.
 */
export interface TraceGuardDecision {
  guard: string;
  declaration: string;
  check: GuardCheckKind;
  action: GuardAction;
  reason?: string;
  replayed?: true;
  /** A judge's model calls: their tokens, and their cost in USD when its model has a price. */
  usage?: LanguageModelUsage;
  costUsd?: number;
}

/**
 * A `<Budget>` reached its cap before a model call of a step: its name and declaration, its
 * cap and what the calls beneath it spent then (in the units it caps: `tokens`, `usd`), and
 * what came of it: `ask` (a person is asked to allow more), `allow` (the cap was raised by
 * the budget's size), `deny` or `fail` (the run fails with `budget-exceeded`). `replayed`
 * when the answer came from the run's record.
 */
export interface TraceBudget {
  budget: string;
  declaration: string;
  cap: { tokens?: number; usd?: number };
  spent: { tokens?: number; usd?: number };
  action: 'ask' | 'allow' | 'deny' | 'fail';
  replayed?: true;
}

/**
 * One compaction of an agent's conversation (`<Agent compact>`): before the step `step`, at
 * `at` (ISO 8601), its `replaced` oldest messages became the summary `summary`, written `by`
 * its model or its function; `messages` and `tokens` (estimated) are the conversation's size
 * before and after; `inStep` when it compacted a later request of the step's tool loop.
 */
export interface TraceCompaction {
  at: string;
  step: string;
  inStep?: true;
  replaced: number;
  kept: number;
  summary: string;
  by: 'model' | 'function';
  calls: number;
  usage: LanguageModelUsage;
  /** What its summary calls cost, in USD, when their model has a price. */
  costUsd?: number;
  messages: { before: number; after: number };
  tokens: { before: number; after: number };
}

/**
 * One node of a trace tree: plain JSON. It never holds a function, a tool object, a
 * component's props, a command's `cwd` or `env`, or an API key.
 *
 * Timestamps are ISO 8601 strings; `durationMs` is in milliseconds; `usage` in tokens.
 */
export interface TraceNode {
  id: string;
  kind: TraceNodeKind;
  name: string;
  status: TraceStatus;
  startedAt: string;
  endedAt?: string;
  durationMs?: number;
  usage?: LanguageModelUsage;
  error?: TraceError;
  children: TraceNode[];
  /** Agent nodes: where each tool came from (absent when only the `tools` prop was used). */
  capabilities?: CapabilityProvenance[];
  /** Agent nodes: each time its conversation was compacted, in order (absent when never). */
  compactions?: TraceCompaction[];
  /** Parallel nodes: the branches' keys in declaration order, what a failure does, how many run at once. */
  branches?: string[];
  mode?: 'fail-fast' | 'settle-all';
  limit?: number;
  /** Branch nodes: the branch's key (a child's `key`, else its index). */
  branch?: string;
  /** Step nodes: the step path (`research:findings`), the prompt, the result, the messages it added. */
  step?: string;
  prompt?: string;
  /** Step nodes: the files and images of the prompt, when it was given as parts. */
  files?: PromptFile[];
  result?: unknown;
  messages?: unknown[];
  /** Model nodes: the model id asked for (`name` is the id the answer gave), its provider's id (`openai.responses`). */
  model?: string;
  provider?: string;
  finishReason?: string;
  /** Model nodes: the call was answered from the run's record (a resume or replay), not made again. */
  replayed?: true;
  /**
   * Model nodes: what the call cost, in USD, at `price`; absent when its model has no price
   * (unknown, not 0). A subtree's cost, child runs included, is `subtreeCost(node)`.
   */
  costUsd?: number;
  /** Model nodes: the price the call was charged at (the catalog's or the run's `prices`; a replayed call's as recorded). */
  price?: ModelPrice;
  /**
   * Model and tool nodes of a run with a journal: the record's name, as `june fork` lists it
   * and `forkRun` takes it (`model plan #2`, `tool fetch plan#0.0/summarize#0.0`); a tool
   * node's approval is `approval <tool> <call id>` (the same call id).
   */
  record?: string;
  /** Tool nodes. */
  toolCallId?: string;
  input?: unknown;
  output?: unknown;
  approval?: TraceApproval;
  /** Tool and step nodes: what the `<Guard>`s over them decided, outermost first. */
  guards?: TraceGuardDecision[];
  /** Step nodes: each time a `<Budget>` over the step reached its cap before a model call, and what came of it. */
  budgets?: TraceBudget[];
  /**
   * Run nodes: what failed inside the run without failing it (tool calls, child runs,
   * attempts a `<Catch>` caught), counted over the whole tree; absent when nothing did.
   */
  failures?: TraceFailures;
}

/**
 * A run's whole trace, as `june run` writes it to `.june/runs/<runId>.json`.
 * `version` changes when the shape does.
 */
export interface Trace {
  version: 1;
  runId: string;
  workflow?: string;
  /** A fork's trace: the run and record it was forked at, and that run's own lineage. */
  forkedFrom?: TraceForkedFrom;
  status: TraceStatus;
  startedAt: string;
  endedAt?: string;
  root: TraceNode;
}

/**
 * Where a fork came from (see `forkRun`): the run and the record (by name, such as
 * `tool research#0.0/findings#0.0`) it was forked at, the change made there (`kind`:
 * `result`, `answer`, `output` or `model`, with its value), and, for a fork of a fork, where
 * that run came from in turn.
 */
export interface TraceForkedFrom {
  runId: string;
  record: string;
  change: { kind: string; [key: string]: unknown };
  forkedFrom?: TraceForkedFrom;
}

/**
 * A file or image in a step's prompt, as events and traces show it: its media type and
 * where it is, a data: URL (bytes given to the step are shown as one) or the URL given.
 */
export interface PromptFile {
  /** The IANA media type (`image/png`), or `image` for an image part that named none. */
  mediaType: string;
  /** A data: URL or the http(s) URL given; absent for a provider's file reference. */
  url?: string;
  filename?: string;
}
