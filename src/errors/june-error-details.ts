import type { JuneErrorCode } from './june-error-code.js';

/**
 * One declaration of a tool name in a `capability-collision`: where it came from in the
 * spec's notation (`<Tool name="search"> in <Namespace name="github">`), the tool's name before
 * a `rename` or namespace (`original`), where it was written (`file.tsx:12:7`, with the
 * development runtime) and the bundle that brought it (`granted`), each when known.
 */
export interface CollidingDeclaration {
  source: string;
  original?: string;
  location?: string;
  granted?: string;
}

/**
 * The facts of the commonest errors as data, by code, so a program (a test, Studio, a
 * retry) reads them instead of parsing the message:
 * - `capability-collision`: the agent, the tool name and both declarations, first one first;
 * - `step-id-duplicate`: the id and the two steps (each as its agent path and notation);
 * - `tool-output-invalid`: the tool and what has no JSON form in its output;
 * - `journal-mismatch`: the journal (in words), the call at fault, and how it differs:
 *   `request-changed` (a model call asks something else; the error's `comparison` holds
 *   both requests), `call-missing` (the recording has no such model call), `call-changed`
 *   (a tool call no longer fits what was recorded); in a replay, `tools` says whether its tool
 *   calls were answered from the recording (`replayed`) or ran (`run`);
 * - `model-file-unsupported`: the step, the media types of the prompt's files and the model
 *   (its provider and id, when known);
 * - `dbos-executor-held`: the executor id a worker was refused, and the live worker that
 *   holds it (its host, pid and since when, as an ISO time), when PostgreSQL shows it;
 * - `guard-tripped`, `guard-rejected`: the guard (its name and declaration with where it
 *   stands), what it checked (`tool-input`, `output`, `user-input`), the step path, the tool
 *   for a tool call, and its reason;
 * - `parallel-failed`: the branches of a `<Parallel mode="settle-all">` that failed, in
 *   declaration order, each with its error's code and message.
 * - `budget-exceeded`: the budget (its name and declaration), the step whose next model call
 *   did not start, its cap and what the calls beneath it spent.
 */
export interface JuneErrorDetailsByCode {
  'capability-collision': {
    agent: string;
    name: string;
    declarations: [CollidingDeclaration, CollidingDeclaration];
  };
  'step-id-duplicate': { id: string; steps: [string, string] };
  'tool-output-invalid': { tool: string; problem: string };
  'journal-mismatch': {
    journal: string;
    /** The call in words: `model call 2 of step "plan"`, `the tool call plan#0.1 of step "plan"`. */
    call: string;
    difference: 'request-changed' | 'call-missing' | 'call-changed';
    /** In a replay: whether its tool calls were answered from the recording or ran for real. */
    tools?: 'replayed' | 'run';
  };
  'model-file-unsupported': {
    step: string;
    mediaTypes: string[];
    provider?: string;
    modelId?: string;
  };
  'dbos-executor-held': {
    executorId: string;
    holder?: { host: string; pid: number; since: string };
  };
  'guard-tripped': GuardErrorDetails;
  'guard-rejected': GuardErrorDetails;
  'budget-exceeded': {
    budget: string;
    /** `<Budget name="research" tokens={20000}>` */
    declaration: string;
    /** The step whose next model call did not start. */
    step: string;
    cap: { tokens?: number; usd?: number };
    spent: { tokens?: number; usd?: number };
  };
  'parallel-failed': { failed: ParallelBranchFailure[] };
}

/** A branch of a `<Parallel>` that failed (see {@link JuneErrorDetailsByCode}): its key and its error. */
export interface ParallelBranchFailure {
  branch: string;
  code?: string;
  message: string;
}

/** What a guard that tripped or rejected something decided about (see {@link JuneErrorDetailsByCode}). */
export interface GuardErrorDetails {
  guard: string;
  /** `<Guard name="no-prod"> at flow.tsx:12:5` (the place when the development runtime knows it). */
  declaration: string;
  check: 'tool-input' | 'output' | 'user-input';
  step: string;
  tool?: string;
  reason?: string;
}

/** The codes whose errors carry {@link JuneErrorDetailsByCode details}. */
export type DetailedErrorCode = keyof JuneErrorDetailsByCode & JuneErrorCode;

/** The details of an error of one of the {@link DetailedErrorCode}s. */
export type JuneErrorDetails = JuneErrorDetailsByCode[DetailedErrorCode];
