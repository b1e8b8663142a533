import type { LanguageModel, LanguageModelUsage } from 'ai';
import type { ApprovalPolicy, ApprovalRequest } from '../approvals/approval-request.js';
import type { ApprovalSource } from '../approvals/approval-source.js';
import { withReason } from '../approvals/with-reason.js';
import { createElement, isElement, type Component, type JuneElement } from '../elements/element.js';
import { displayNameOf, kindOf } from '../elements/builtin.js';
import { isReactElement, reactElementError } from '../elements/jsx-setup.js';
import type { RunLogEvent } from '../events/run-event.js';
import type { RunConsumer } from '../events/run-consumer.js';
import { WorkflowError } from '../errors/june-error.js';
import type { DurableEngineFactory } from '../engine/durable-engine.js';
import { newRunId } from '../engine/run-id.js';
import { holdToolCallContexts } from '../engine/tool-call-context.js';
import type { Trace } from '../trace/trace-node.js';
import { registerKnownCredentials } from '../redaction/configured-secrets.js';
import type { RedactOptions } from '../redaction/redactor.js';
import { abortGraceOf, settleWithinGrace } from './abort-grace.js';
import { endConsumers } from './end-consumers.js';
import { frameTrace } from './run-frame.js';
import { createRunFrame } from './run-state.js';
import { RunPass } from './run-pass.js';
import { createRunServices } from './run-services.js';
import { abandonRun, runWork, type StartedRun } from './run-work.js';

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

/** Options of {@link runWorkflow}: a run with its durable engine, if any, given as a factory. */
export interface WorkflowRunOptions<OUTPUT = unknown> {
  /** Aborts the run, like `handle.abort()`. */
  signal?: AbortSignal;
  /**
   * Answers approval requests first: automatically (recorded as automatic), or passing on a
   * person's answer (`{ approved, answeredBy }`); `undefined` leaves one to a person.
   */
  onApproval?: ApprovalPolicy;
  /**
   * Where people answer the run's approval requests besides the handle (a chat bot, a
   * dashboard): each is connected when the run starts and disconnected when it ends. The
   * first answer to a request is applied, from whichever source; see `ApprovalSource`.
   */
  approvalSources?: readonly ApprovalSource[];
  /** Props for the root component (merged over the element's own props). */
  props?: Record<string, unknown>;
  /** Picks the run's `output` from its results. @default the only step's result, or an object of all */
  output?: (result: {
    steps: Record<string, unknown>;
    usage: LanguageModelUsage;
  }) => OUTPUT | Promise<OUTPUT>;
  /** Answers every model call of the run with this model instead of each agent's (offline scripts, tests). */
  model?: LanguageModel;
  /** The run's id. @default a time-sortable id with 48 random bits, such as `20261130-120301-3fa94c1e27b0` */
  runId?: string;
  /** A name for the workflow in traces and Studio. @default the root component's name */
  workflow?: string;
  /**
   * Makes the run's durable engine, which records every finished model call, tool call and
   * approval as the run goes and answers them again when the run is taken up again (see
   * `DurableEngine`). `run()`'s `journal`, `resume` and `replay` options make June's
   * journal engine (`journalEngine()`); `june/dbos` makes one over DBOS. @default none: nothing is recorded
   */
  engine?: DurableEngineFactory;
  /**
   * After an abort, how long to wait for tool executions, model calls and components to stop,
   * in ms. Work still running then (a tool that ignores its `abortSignal`, a component that
   * never returns) is abandoned: the run settles as `aborted` anyway, the trace closes its
   * nodes and the error names what did not stop (`error.unstopped`).
   * @default 5000 (`DEFAULT_ABORT_GRACE_MS`)
   * @throws {WorkflowError} `run-abort-grace-invalid` (at once) when not a number of ms, 0 or more.
   */
  abortGraceMs?: number;
  /**
   * Fails the run (`run-strict-failed`) when it would succeed with a workflow error inside
   * it, at any depth: a composite tool whose body had a tree error (its calling model saw a
   * tool error and went on), a failure a `<Catch>` caught; or, when `model` is a scripted
   * model, with script turns that never ran. For tests and CI. @default false
   */
  strict?: boolean;
  /**
   * Values and patterns kept out of every record of the run: each occurrence becomes
   * `[redacted]` in its events, trace, journal (so in `june run`'s output, trace files and
   * Studio) and in the messages of the error `result` rejects with. Credentials June is
   * given (URL credentials, MCP headers, `env` values of MCP servers and `<Bash>`, the
   * OpenAI key) are removed without this option. A resumed run sees `[redacted]` where a
   * recorded tool output held a redacted value. See docs/redaction.md.
   * @example { values: [process.env.DEPLOY_TOKEN!], patterns: [/sk-[A-Za-z0-9_-]{20,}/] }
   */
  redact?: RedactOptions;
  /**
   * Whether model calls stream. `false` is batch mode, for runs whose text nobody watches
   * as it comes (a queue worker, `june run --json`): each model call goes through the
   * provider's non-streaming call (`generateText`), which costs less, and every event still
   * comes, a turn's text as one `text-delta` once the model has answered. Approvals, tools,
   * composite tools, journals and abort work the same. @default true
   */
  stream?: boolean;
  /**
   * Follow the run's events as they happen, each event with its trace node (`nodeId`,
   * `parentId`) and time (`at`): a trace writer (`traceWriter({ dir })` writes a trace file
   * Studio reads), a progress printer, an exporter. Each consumer's `end` is awaited before
   * `result` settles. See docs/run-handle-and-events.md. @default none (nothing is spent)
   */
  consumers?: readonly RunConsumer[];
}

/** What a finished run gives: every step's result, the output, token usage (all model calls, child runs included) and the trace. */
export interface RunResult<OUTPUT = unknown> {
  steps: Record<string, unknown>;
  output: OUTPUT;
  usage: LanguageModelUsage;
  trace: Trace;
}

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
   * through what (default source: `handle`); see {@link AnsweredBy}.
   * @throws {JuneError} `approval-unknown` when no such request is pending (answered
   *   already, from here or a source; withdrawn; never asked): nothing changes.
   */
  approve(id: string, by?: AnsweredBy): void;
  /** Denies a pending request; the model sees the denial and `reason`. @throws {JuneError} `approval-unknown` */
  deny(id: string, reason?: string, by?: AnsweredBy): void;
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
      approvals.answerOrThrow(id, { approved: true, ...answeredBy(by) }, by?.source ?? 'handle'),
    deny: (id, reason, by) =>
      approvals.answerOrThrow(
        id,
        { approved: false, ...withReason(reason), ...answeredBy(by) },
        by?.source ?? 'handle',
      ),
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
