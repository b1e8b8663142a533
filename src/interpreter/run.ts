import type { LanguageModel, LanguageModelUsage } from 'ai';
import type { ApprovalPolicy, ApprovalRequest } from '../approvals/approval-request.js';
import { createElement, isElement, type Component, type JuneElement, type JuneNode } from '../elements/element.js';
import { displayNameOf, kindOf } from '../elements/builtin.js';
import type { RunEvent } from '../events/run-event.js';
import { JuneError, RunAbortedError, WorkflowError } from '../errors/june-error.js';
import { openNode } from '../trace/trace-builder.js';
import type { Trace } from '../trace/trace-node.js';
import { evaluate } from './evaluate.js';
import { evaluateFrame, frameTrace } from './run-frame.js';
import { createRunFrame, RunRoot } from './run-state.js';

/** Options of {@link run}. */
export interface RunOptions<OUTPUT = unknown> {
  /** Aborts the run, like `handle.abort()`. */
  signal?: AbortSignal;
  /** Answers approval requests automatically (recorded as automatic); `undefined` leaves one to a person. */
  onApproval?: ApprovalPolicy;
  /** Props for the root component (merged over the element's own props). */
  props?: Record<string, unknown>;
  /** Picks the run's `output` from its results. @default the only step's result, or an object of all */
  output?: (result: { steps: Record<string, unknown>; usage: LanguageModelUsage }) => OUTPUT | Promise<OUTPUT>;
  /** Answers every model call of the run with this model instead of each agent's (offline scripts, tests). */
  model?: LanguageModel;
  /** The run's id. @default a time-based id such as `20261129-185225-4f2a` */
  runId?: string;
  /** A name for the workflow in traces and Studio. @default the root component's name */
  workflow?: string;
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
  /** Every event of the run (and its child runs) from the start, in order; ends with the run. */
  readonly events: AsyncIterable<RunEvent>;
  /** The approval requests waiting for an answer, oldest first. */
  readonly pendingApprovals: ApprovalRequest[];
  /** Approves a pending request. @throws {JuneError} `approval-unknown` when no such request is pending. */
  approve(id: string): void;
  /** Denies a pending request; the model sees the denial and `reason`. @throws {JuneError} `approval-unknown` */
  deny(id: string, reason?: string): void;
  /** Aborts model calls, tool executions, child runs and pending approvals; `result` rejects with `run-aborted` after cleanup. */
  abort(reason?: string): void;
  /** A snapshot of the trace so far (plain JSON). */
  trace(): Trace;
}

/**
 * Runs a workflow. Before the first model call the tree is checked as far as it can be
 * without rendering your components (step placement and ids, agent models, capability
 * resolution), so a tree error never costs a token.
 *
 * @example
 * ```tsx
 * const handle = run(<Release />, { onApproval: (request) => request.tool !== 'deploy' || undefined });
 * for await (const event of handle.events) if (event.type === 'text-delta') process.stdout.write(event.delta);
 * const { output, usage } = await handle.result;
 * ```
 */
export function run<OUTPUT = unknown>(workflow: JuneElement | Component, options: RunOptions<OUTPUT> = {}): RunHandle<OUTPUT> {
  const element = rootElement(workflow, options.props);
  const runId = options.runId ?? newRunId();
  const name = options.workflow ?? displayNameOf(element.type);
  const rendered = new Map<JuneElement, JuneNode>();
  const root = new RunRoot(runId, 'run', options.model, options.onApproval, rendered);
  const frame = createRunFrame(root, runId, [], root.controller.signal, openNode('run', name));
  const onAbort = () => root.controller.abort(options.signal!.reason);
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  const result = (async (): Promise<RunResult<OUTPUT>> => {
    await Promise.resolve();
    try {
      const checkThenEvaluate: typeof evaluate = async (node, ctx) => {
        await validateTree(element, rendered, root.controller.signal);
        await evaluate(node, ctx);
      };
      const outcome = await evaluateFrame(frame, element, checkThenEvaluate, options.output, name);
      return outcome as RunResult<OUTPUT>;
    } catch (error) {
      if (root.controller.signal.aborted) {
        await Promise.allSettled([...root.inflight]);
        const aborted = JuneError.isInstance(error) && error.code === 'run-aborted' ? error : new RunAbortedError(root.controller.signal.reason);
        if (!('trace' in aborted)) Object.defineProperty(aborted, 'trace', { value: frameTrace(frame, name), enumerable: false });
        throw aborted;
      }
      throw error;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      await root.sources.closeAll();
      root.events.close();
    }
  })();
  result.catch(() => {});

  return {
    runId,
    result,
    events: root.events,
    get pendingApprovals() {
      return root.broker.requests;
    },
    approve: (id) => root.broker.answer(id, { approved: true }),
    deny: (id, reason) => root.broker.answer(id, reason === undefined ? { approved: false } : { approved: false, reason }),
    abort: (reason) => root.controller.abort(reason === undefined ? undefined : new Error(reason)),
    trace: () => structuredClone(frameTrace(frame, name)),
  };
}

/**
 * Checks the tree before any model call: components render (once: the run reuses what they
 * returned), agents resolve their capabilities, steps are checked but not run, and
 * render-prop children are not followed.
 */
async function validateTree(element: JuneElement, rendered: Map<JuneElement, JuneNode>, signal: AbortSignal): Promise<void> {
  const root = new RunRoot('validate', 'validate', undefined, undefined, rendered);
  const frame = createRunFrame(root, 'validate', [], signal, openNode('run', 'validate'));
  await evaluate(element, { run: frame, parentTrace: frame.trace });
}

function rootElement(workflow: JuneElement | Component, props: Record<string, unknown> | undefined): JuneElement {
  if (typeof workflow === 'function') return createElement(workflow, { ...(props ?? {}) });
  if (!isElement(workflow)) {
    throw new WorkflowError('run-workflow-invalid', `june: run() takes an element such as <Workflow /> or a component, got ${workflow === null ? 'null' : typeof workflow}.`);
  }
  if (!props) return workflow;
  if (kindOf(workflow.type) !== undefined) {
    throw new WorkflowError('run-props-invalid', `june: the props option is for a root component of your own; <${displayNameOf(workflow.type)}> takes its props in JSX.`);
  }
  return createElement(workflow.type, { ...(workflow.props as object), ...props }, workflow.key, workflow.source);
}

function newRunId(): string {
  const now = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${now}-${Math.random().toString(16).slice(2, 6)}`;
}
