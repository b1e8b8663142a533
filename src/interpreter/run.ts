import type { ApprovalRequest } from '../approvals/approval-request.js';
import { withReason } from '../approvals/with-reason.js';
import { createElement, isElement, type Component, type JuneElement } from '../elements/element.js';
import { displayNameOf, kindOf } from '../elements/builtin.js';
import { isReactElement, reactElementError } from '../elements/jsx-setup.js';
import type { RunLogEvent } from '../events/run-event.js';
import { WorkflowError } from '../errors/june-error.js';
import { newRunId } from '../engine/run-id.js';
import { holdToolCallContexts } from '../engine/tool-call-context.js';
import type { Trace } from '../trace/trace-node.js';
import { registerKnownCredentials } from '../redaction/configured-secrets.js';
import { abortGraceOf, settleWithinGrace } from './abort-grace.js';
import { endConsumers } from './end-consumers.js';
import { frameTrace } from './run-frame.js';
import { createRunFrame } from './run-state.js';
import { RunPass } from './run-pass.js';
import { createRunServices } from './run-services.js';
import { abandonRun, runWork, type StartedRun } from './run-work.js';

import type { ApprovalSource } from '../approvals/approval-source.js';
import type { RunResult } from './run-result.js';
import type { WorkflowRunOptions } from './workflow-run-options.js';

/**
 * Who gave an answer through the run handle: `answeredBy` (free text: a user name, an
 * email), `answeredAt` (ISO 8601 or a `Date`; default now) and `source` (default `handle`;
 * a program relaying a person's answer from elsewhere names that, such as `'slack'`).
 */
export interface AnsweredBy {
  answeredBy?: string;
  answeredAt?: string | Date;
  source?: string;
}

/**
 * An approval through the run handle: who gave it ({@link AnsweredBy}), and `input`, the
 * input the call runs with instead of the model's (an edit; a JSON value). The tool's input
 * schema checks it before anything changes, and the model's conversation shows the call
 * with it (see docs/approvals.md).
 */
export interface ApproveOptions extends AnsweredBy {
  input?: unknown;
}

export type { WorkflowRunOptions } from './workflow-run-options.js';
export type { RunResult } from './run-result.js';

/** A running workflow. */
export interface RunHandle<OUTPUT = unknown> {
  readonly runId: string;
  /**
   * Settles when the run ends: resolves with its results, or rejects with a `JuneError`
   * (`run-aborted` when aborted), or with an error your own code threw (a component, a
   * prompt function); either carries the run's trace as `error.trace`.
   */
  readonly result: Promise<RunResult<OUTPUT>>;
  /**
   * The run's log: every event of the run and its child runs from the start, in order,
   * ending with the run, each with its trace node (`nodeId`, `parentId`) and time (`at`):
   * runs, agents, steps, model calls, text and reasoning, tool calls and their outcomes,
   * approvals, `<Catch>` attempts. Each reader reads it from the start (consecutive deltas
   * of one model call may come joined). `applyEvent` turns it into the run's trace.
   */
  readonly events: AsyncIterable<RunLogEvent>;
  /**
   * The same events as {@link events}, under the name they had when `events` showed fewer.
   * @deprecated read `events`.
   */
  readonly log: AsyncIterable<RunLogEvent>;
  /** The approval requests waiting for an answer, oldest first. */
  readonly pendingApprovals: ApprovalRequest[];
  /**
   * Approves a pending request (by its `id`, or its `key`). `by` says who answered, when and
   * through what (default source: `handle`); see {@link AnsweredBy}. With `by.input`, the
   * call runs with that input instead of the model's (see {@link ApproveOptions}).
   * @throws {JuneError} `approval-unknown` when no such request is pending (answered
   *   already, from here or a source; withdrawn; never asked): nothing changes.
   * @throws {JuneError} `approval-input-invalid` when `by.input` does not fit the tool's
   *   input schema (the message names the tool and what failed); `approval-answer-invalid`
   *   when it has no JSON form; `question-answer-missing` when the request is a question
   *   (`kind: 'question'`), which is answered with {@link respond}, not approved. Nothing
   *   changes: the request still waits.
   */
  approve(id: string, by?: ApproveOptions): void;
  /** Denies a pending request; the model sees the denial and `reason`. @throws {JuneError} `approval-unknown` */
  deny(id: string, reason?: string, by?: AnsweredBy): void;
  /**
   * Answers a pending request instead of the tool: the tool does not run, and the model
   * reads `output` (a JSON value) as the tool's result, not as a denial. The answer is
   * recorded as not approved, with its output. This is how a question (`kind: 'question'`)
   * is answered: `output` is the person's answer, checked against its answer schema.
   * @throws {JuneError} `approval-unknown` as {@link approve}; `approval-output-invalid`
   *   when the tool has an `outputSchema` and `output` does not fit it;
   *   `approval-answer-invalid` when `output` is `undefined` or has no JSON form. Nothing
   *   changes: the request still waits.
   */
  respond(id: string, output: unknown, by?: AnsweredBy): void;
  /**
   * Connects a source of answers (a chat bot, a dashboard; see `ApprovalSource`) for the
   * rest of the run: it is told about the requests waiting now and each later one, and is
   * disconnected when the run ends. @returns what disconnects it earlier.
   */
  connect(source: ApprovalSource): () => Promise<void>;
  /**
   * Aborts model calls, tool executions, child runs and pending approvals; `result` rejects
   * with `run-aborted` after their cleanup, or after `abortGraceMs` with what did not stop.
   */
  abort(reason?: string): void;
  /** A snapshot of the trace so far (plain JSON). */
  trace(): Trace;
}

/**
 * Runs a workflow with the durable engine `options.engine` makes, if any (June's `run()`
 * maps its journal options onto one). Before the first model call the tree is checked as far
 * as it can be without rendering your components (step placement and ids, agent models,
 * capability resolution), so a tree error never costs a token.
 *
 * @throws {WorkflowError} `run-workflow-invalid`, `run-props-invalid`, at once; every other
 *   error (the engine's among them) through `result`.
 * @example
 * ```tsx
 * const handle = runWorkflow(<Release />, { onApproval: (request) => request.tool !== 'deploy' || undefined });
 * for await (const event of handle.events) if (event.type === 'text-delta') process.stdout.write(event.delta);
 * const { output, usage } = await handle.result;
 * ```
 */
export function runWorkflow<OUTPUT = unknown>(
  workflow: JuneElement | Component,
  options: WorkflowRunOptions<OUTPUT> = {},
): RunHandle<OUTPUT> {
  const element = rootElement(workflow, options.props);
  const runId = options.runId ?? newRunId();
  const name = options.workflow ?? displayNameOf(element.type);
  // the provider keys in the environment are credentials whatever model this run uses (a
  // script, a replayed journal): a tool that prints one must not put it into a record
  registerKnownCredentials();
  const services = createRunServices({ ...options, runId });
  const pass = new RunPass(services);
  const { abort } = services;
  const frame = createRunFrame({ pass, runId, prefix: [], signal: abort.signal });
  const unfollow = abort.follow(options.signal);
  const graceMs = abortGraceOf(options.abortGraceMs);
  const run: StartedRun<OUTPUT> = {
    element,
    name,
    frame,
    options,
    unfollow,
    abandoned: false,
  };
  const work = runWork(run);
  work.catch(() => {});
  // An abort settles the run within graceMs even when a tool or component ignores its signal.
  const settled = settleWithinGrace(work, abort.signal, graceMs, () => abandonRun(run, graceMs));
  // batch mode: the tool-call context stays on for the run instead of toggling per call
  if (!services.settings.stream) {
    const release = holdToolCallContexts();
    settled.then(release, release);
  }
  const result = endConsumers(services.log.consumers, settled, () => ({
    trace: frameTrace(frame, name),
    usage: frame.usage,
  }));
  result.catch(() => {});
  return runHandle(run, result);
}

/** The handle of a started run (see {@link RunHandle}). */
function runHandle<OUTPUT>(
  run: StartedRun<OUTPUT>,
  result: Promise<RunResult<OUTPUT>>,
): RunHandle<OUTPUT> {
  const { frame, name } = run;
  const { runId, log, approvals, abort } = frame.pass.services;
  return {
    runId,
    result,
    events: log.events,
    log: log.events,
    get pendingApprovals() {
      return approvals.requests;
    },
    approve: (id, by) =>
      approvals.answerOrThrow(
        id,
        {
          approved: true,
          ...(by?.input !== undefined ? { input: by.input } : {}),
          ...answeredBy(by),
        },
        by?.source ?? 'handle',
      ),
    deny: (id, reason, by) =>
      approvals.answerOrThrow(
        id,
        { approved: false, ...withReason(reason), ...answeredBy(by) },
        by?.source ?? 'handle',
      ),
    respond: (id, output, by) => {
      if (output === undefined)
        throw new WorkflowError(
          'approval-answer-invalid',
          `june: handle.respond("${id}", output) needs an output, the JSON value the model reads as the tool's result; to refuse the call without one, use handle.deny("${id}", reason).`,
        );
      approvals.answerOrThrow(
        id,
        { approved: false, output, ...answeredBy(by) },
        by?.source ?? 'handle',
      );
    },
    connect: (source) => approvals.connect(source),
    abort: (reason) => abort.abort(reason === undefined ? undefined : new Error(reason)),
    trace: () => structuredClone(frameTrace(frame, name)),
  };
}

/** The `answeredBy`/`answeredAt` of a handle's answer, those given. */
function answeredBy(by: AnsweredBy | undefined): Omit<AnsweredBy, 'source'> {
  return {
    ...(by?.answeredBy !== undefined ? { answeredBy: by.answeredBy } : {}),
    ...(by?.answeredAt !== undefined ? { answeredAt: by.answeredAt } : {}),
  };
}

function rootElement(
  workflow: JuneElement | Component,
  props: Record<string, unknown> | undefined,
): JuneElement {
  if (typeof workflow === 'function') return createElement(workflow, { ...(props ?? {}) });
  if (isReactElement(workflow)) throw reactElementError(workflow);
  if (!isElement(workflow)) {
    throw new WorkflowError(
      'run-workflow-invalid',
      `june: run() takes an element such as <Workflow /> or a component, got ${workflow === null ? 'null' : typeof workflow}.`,
    );
  }
  if (!props) return workflow;
  if (kindOf(workflow.type) !== undefined) {
    throw new WorkflowError(
      'run-props-invalid',
      `june: the props option is for a root component of your own; <${displayNameOf(workflow.type)}> takes its props in JSX.`,
    );
  }
  return createElement(
    workflow.type,
    { ...(workflow.props as object), ...props },
    workflow.key,
    workflow.source,
  );
}
