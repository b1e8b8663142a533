import type { JuneElement } from '../elements/element.js';
import { JuneError, RunAbortedError } from '../errors/june-error.js';
import { errorData } from '../errors/error-data.js';
import { DurableCalls } from '../engine/durable-calls.js';
import type { TraceNode } from '../trace/trace-node.js';
import { evaluate } from './evaluate.js';
import { unstoppedWork } from './abort-grace.js';
import { evaluateFrame, frameTrace } from './run-frame.js';
import { createRunFrame, RunRoot, type RunFrame } from './run-state.js';
import { strictFailure } from './strict-failure.js';
import type { RunResult } from './run-result.js';
import type { WorkflowRunOptions } from './workflow-run-options.js';

/** A run `runWorkflow` started: what its work and its abandonment share. */
export interface StartedRun<OUTPUT = unknown> {
  element: JuneElement;
  /** The workflow's name in the trace. */
  name: string;
  root: RunRoot;
  /** The outermost run's frame. */
  frame: RunFrame;
  options: WorkflowRunOptions<OUTPUT>;
  /** Stops following `options.signal`. */
  unfollow(): void;
  /** True once the run was settled without its work (see {@link abandonRun}). */
  abandoned: boolean;
}

/**
 * The run's work: opens its engine, checks the tree, evaluates it (and, with `strict`, fails
 * on a workflow error at any depth), then tells the engine how it ended. An abort becomes the
 * engine's failure when it stopped the run, else a `RunAbortedError` with the trace.
 * Errors leave redacted. Always closes the run's tool sources and its log.
 */
export async function runWork<OUTPUT>(run: StartedRun<OUTPUT>): Promise<RunResult<OUTPUT>> {
  const { root, frame, options, name, element } = run;
  await Promise.resolve();
  try {
    const checkThenEvaluate: typeof evaluate = async (node, ctx) => {
      await openEngine(root, options, name);
      await validateTree(element, root);
      await evaluate(node, ctx);
      const strict = options.strict ? strictFailure(runNode(frame), options.model) : undefined;
      if (strict) throw strict;
    };
    const outcome = await evaluateFrame(frame, element, checkThenEvaluate, options.output, name);
    if (!run.abandoned) await root.durable?.engine.finish('succeeded');
    return outcome as RunResult<OUTPUT>;
  } catch (error) {
    if (run.abandoned) throw error;
    if (root.controller.signal.aborted) throw root.redactor.error(await abortedError(run, error));
    await root.durable?.engine.finish('failed', error);
    throw root.redactor.error(error);
  } finally {
    run.unfollow();
    await root.sources.closeAll();
    root.events.close();
  }
}

/**
 * Settles a run whose work did not stop within `graceMs` of its abort: its `run-finish`
 * closes every node still open, the engine is told, and the error (with the trace) names
 * what did not stop.
 */
export async function abandonRun(run: StartedRun<unknown>, graceMs: number): Promise<never> {
  const { root, frame, name } = run;
  run.abandoned = true;
  const error = abandonedError(frame, graceMs);
  Object.defineProperty(error, 'trace', { value: frameTrace(frame, name), enumerable: false });
  run.unfollow();
  await root.durable?.engine.finish('aborted', error).catch(() => {});
  await root.sources.closeAll();
  root.events.close();
  throw root.redactor.error(error);
}

/**
 * The error of an aborted run, once its in-flight work settled: the engine's when it stopped
 * the run (a mismatch with its record, a failed write), else the abort's; with the trace.
 */
async function abortedError(run: StartedRun<unknown>, error: unknown): Promise<Error> {
  const { root, frame, name } = run;
  await Promise.allSettled([...root.inflight]);
  const stopped = root.durable?.engine.failure;
  const aborted =
    stopped instanceof Error
      ? stopped
      : JuneError.isInstance(error) && error.code === 'run-aborted'
        ? error
        : new RunAbortedError(root.controller.signal.reason);
  if (!('trace' in aborted))
    Object.defineProperty(aborted, 'trace', {
      value: frameTrace(frame, name),
      enumerable: false,
    });
  await root.durable?.engine.finish(stopped instanceof Error ? 'failed' : 'aborted', aborted);
  return aborted;
}

/**
 * Checks the tree before any model call: components render (once: the run reuses what they
 * returned), agents resolve their capabilities, steps are checked but not run, and
 * render-prop children are not followed.
 */
async function validateTree(element: JuneElement, run: RunRoot): Promise<void> {
  const root = new RunRoot({ runId: 'validate', mode: 'validate', rendered: run.rendered });
  root.rendering = run.rendering;
  const signal = run.controller.signal;
  const frame = createRunFrame({ root, runId: 'validate', prefix: [], signal });
  await evaluate(element, { run: frame, parentId: frame.nodeId });
}

/**
 * Makes the run's durable engine when it has one, inside the run (so a run whose engine
 * cannot start still ends with `run-finish` and a settled trace).
 */
async function openEngine(
  root: RunRoot,
  options: WorkflowRunOptions<any>,
  workflow: string,
): Promise<void> {
  if (!options.engine) return;
  const engine = await options.engine({
    runId: root.runId,
    workflow,
    ...(options.props ? { props: options.props } : {}),
    redactor: root.redactor,
    stop: (reason) => root.controller.abort(reason),
    signal: root.controller.signal,
  });
  root.attachEngine(new DurableCalls(engine));
}

/** The outermost run's node as its events built it. */
function runNode(frame: RunFrame): TraceNode {
  return frame.root.trace.nodes.get(frame.nodeId) ?? frameTrace(frame).root;
}

/**
 * Settles a run whose work did not stop within `graceMs` of its abort: its `run-finish`
 * closes every node still open, and the error names what did not stop.
 */
function abandonedError(frame: RunFrame, graceMs: number): RunAbortedError {
  const root = frame.root;
  const calls = [...root.calls.values()];
  const unstopped = unstoppedWork(runNode(frame), {
    calls,
    components: [...root.rendering].map((entry) => entry.component),
  });
  const error = new RunAbortedError(root.controller.signal.reason, { unstopped, graceMs });
  const left = new RunAbortedError(
    `this had not stopped ${graceMs} ms after the abort; the run settled without it`,
  );
  root.emit({
    type: 'run-finish',
    runId: frame.runId,
    nodeId: frame.nodeId,
    status: 'aborted',
    usage: frame.usage,
    error: errorData(error),
    abandoned: {
      error: errorData(left),
      toolCallIds: calls.flatMap((call) =>
        call.toolCallId === undefined ? [] : [call.toolCallId],
      ),
    },
  });
  return error;
}
