import type { ApprovalRequest } from '../approvals/approval-request.js';
import {
  createElement,
  isElement,
  type Component,
  type JuneElement,
  type JuneNode,
} from '../elements/element.js';
import { displayNameOf, kindOf } from '../elements/builtin.js';
import { isReactElement, reactElementError } from '../elements/jsx-setup.js';
import type { RunEvent, RunLogEvent } from '../events/run-event.js';
import { handleEvents } from '../events/handle-event.js';
import { WorkflowError } from '../errors/june-error.js';
import { newRunId } from '../engine/run-id.js';
import { holdToolCallContexts } from '../engine/tool-call-context.js';
import type { Trace } from '../trace/trace-node.js';
import { configuredSecrets, registerKnownCredentials } from '../redaction/configured-secrets.js';
import { Redactor } from '../redaction/redactor.js';
import { abortGraceOf, settleWithinGrace } from './abort-grace.js';
import { endConsumers } from './end-consumers.js';
import { frameTrace } from './run-frame.js';
import { createRunFrame, RunRoot } from './run-state.js';
import { abandonRun, runWork, type StartedRun } from './run-work.js';

import type { RunResult } from './run-result.js';
import type { WorkflowRunOptions } from './workflow-run-options.js';

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
  /** Every event of the run (and its child runs) from the start, in order; ends with the run. */
  readonly events: AsyncIterable<RunEvent>;
  /**
   * The run's log from the start, in order, ending with the run: every event with its
   * trace node and time, the kinds `events` leaves out included (model calls, denied calls,
   * `<Catch>` attempts, reasoning). `applyEvent` turns it into the run's trace.
   */
  readonly log: AsyncIterable<RunLogEvent>;
  /** The approval requests waiting for an answer, oldest first. */
  readonly pendingApprovals: ApprovalRequest[];
  /** Approves a pending request. @throws {JuneError} `approval-unknown` when no such request is pending. */
  approve(id: string): void;
  /** Denies a pending request; the model sees the denial and `reason`. @throws {JuneError} `approval-unknown` */
  deny(id: string, reason?: string): void;
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
  const root = runRoot(runId, options);
  const frame = createRunFrame({ root, runId, prefix: [], signal: root.controller.signal });
  const unfollow = followSignal(root, options.signal);
  const graceMs = abortGraceOf(options.abortGraceMs);
  const run: StartedRun<OUTPUT> = {
    element,
    name,
    root,
    frame,
    options,
    unfollow,
    abandoned: false,
  };
  const work = runWork(run);
  work.catch(() => {});
  // An abort settles the run within graceMs even when a tool or component ignores its signal.
  const settled = settleWithinGrace(work, root.controller.signal, graceMs, () =>
    abandonRun(run, graceMs),
  );
  // batch mode: the tool-call context stays on for the run instead of toggling per call
  if (!root.stream) {
    const release = holdToolCallContexts();
    settled.then(release, release);
  }
  const result = endConsumers(root.consumers, settled, () => ({
    trace: frameTrace(frame, name),
    usage: frame.usage,
  }));
  result.catch(() => {});
  return runHandle(run, result);
}

/** The run's shared state, from its options. */
function runRoot(runId: string, options: WorkflowRunOptions<any>): RunRoot {
  // the provider keys in the environment are credentials whatever model this run uses (a
  // script, a replayed journal): a tool that prints one must not put it into a record
  registerKnownCredentials();
  const root = new RunRoot({
    runId,
    mode: 'run',
    model: options.model,
    onApproval: options.onApproval,
    rendered: new Map<JuneElement, JuneNode>(),
  });
  if (options.redact) root.redactor = new Redactor(options.redact, configuredSecrets);
  root.stream = options.stream !== false;
  root.consumers = options.consumers ?? [];
  if (options.engine) root.expectEngine();
  return root;
}

/** Aborts the run when `signal` aborts (at once when it already has); returns what stops following it. */
function followSignal(root: RunRoot, signal: AbortSignal | undefined): () => void {
  const onAbort = () => root.controller.abort(signal!.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return () => signal?.removeEventListener('abort', onAbort);
}

/** The handle of a started run (see {@link RunHandle}). */
function runHandle<OUTPUT>(
  run: StartedRun<OUTPUT>,
  result: Promise<RunResult<OUTPUT>>,
): RunHandle<OUTPUT> {
  const { root, frame, name } = run;
  return {
    runId: root.runId,
    result,
    events: handleEvents(root.events),
    log: root.events,
    get pendingApprovals() {
      return root.broker.requests;
    },
    approve: (id) => root.broker.answer(id, { approved: true }),
    deny: (id, reason) =>
      root.broker.answer(
        id,
        reason === undefined ? { approved: false } : { approved: false, reason },
      ),
    abort: (reason) => root.controller.abort(reason === undefined ? undefined : new Error(reason)),
    trace: () => structuredClone(frameTrace(frame, name)),
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
