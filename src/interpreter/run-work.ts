import type { JuneElement } from '../elements/element.js';
import { JuneError, RunAbortedError } from '../errors/june-error.js';
import { errorData } from '../errors/error-data.js';
import type { TraceNode } from '../trace/trace-node.js';
import { evaluate } from './evaluate.js';
import { unstoppedWork } from './abort-grace.js';
import { evaluateFrame, frameTrace } from './run-frame.js';
import { createRunFrame, type RunFrame } from './run-state.js';
import { CheckPass } from './check-pass.js';
import type { RunPass } from './run-pass.js';
import { strictFailure } from './strict-failure.js';
import { isGuardTrip } from './guard-trip.js';
import { outputPicker } from './run-output.js';
import type { RunResult } from './run-result.js';
import type { WorkflowRunOptions } from './workflow-run-options.js';

/** A run `runWorkflow` started: what its work and its abandonment share. */
export interface StartedRun<OUTPUT = unknown> {
  element: JuneElement;
  /** The workflow's name in the trace. */
  name: string;
  /** The outermost run's frame; its pass holds the run's services. */
  frame: RunFrame<RunPass>;
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
  const { frame, options, name, element } = run;
  const services = frame.pass.services;
  const { engine, log, abort } = services;
  await Promise.resolve();
  try {
    const checkThenEvaluate: typeof evaluate = async (node, ctx) => {
      await engine.open({
        runId: services.runId,
        workflow: name,
        ...(options.props ? { props: options.props } : {}),
        redactor: log.redactor,
        stop: (reason) => abort.abort(reason),
        signal: abort.signal,
      });
      await checkTree(element, frame.pass);
      await evaluate(node, ctx);
      const strict = options.strict ? strictFailure(runNode(frame), options.model) : undefined;
      if (strict) throw strict;
    };
    const pick = outputPicker(options.output);
    const outcome = await evaluateFrame(frame, element, checkThenEvaluate, pick, name);
    if (!run.abandoned) await engine.finish('succeeded');
    return outcome as RunResult<OUTPUT>;
  } catch (error) {
    if (run.abandoned) throw error;
    if (abort.signal.aborted) throw log.redactor.error(await abortedError(run, error));
    await engine.finish('failed', error);
    throw log.redactor.error(error);
  } finally {
    run.unfollow();
    await services.sources.closeAll();
    await services.approvals.close();
    log.close();
  }
}

/**
 * Settles a run whose work did not stop within `graceMs` of its abort: its `run-finish`
 * closes every node still open, the engine is told, and the error (with the trace) names
 * what did not stop.
 */
export async function abandonRun(run: StartedRun<unknown>, graceMs: number): Promise<never> {
  const { frame, name } = run;
  const { engine, sources, approvals, log } = frame.pass.services;
  run.abandoned = true;
  const error = abandonedError(frame, graceMs);
  Object.defineProperty(error, 'trace', { value: frameTrace(frame, name), enumerable: false });
  run.unfollow();
  await engine.finish('aborted', error).catch(() => {});
  await sources.closeAll();
  await approvals.close();
  log.close();
  throw log.redactor.error(error);
}

/**
 * The error of an aborted run, once its in-flight work settled: the engine's when it stopped
 * the run (a mismatch with its record, a failed write), else the abort's; with the trace.
 */
async function abortedError(run: StartedRun<unknown>, error: unknown): Promise<Error> {
  const { frame, name } = run;
  const { abort, engine } = frame.pass.services;
  await Promise.allSettled([...abort.inflight]);
  // a guard that tripped stops the run with its own error (unless the engine failed first)
  const stopped =
    engine.failure ?? (isGuardTrip(abort.signal.reason) ? abort.signal.reason : undefined);
  const aborted =
    stopped instanceof Error
      ? stopped
      : JuneError.isInstance(error) && error.code === 'run-aborted'
        ? error
        : new RunAbortedError(abort.signal.reason);
  if (!('trace' in aborted))
    Object.defineProperty(aborted, 'trace', {
      value: frameTrace(frame, name),
      enumerable: false,
    });
  await engine.finish(stopped instanceof Error ? 'failed' : 'aborted', aborted);
  return aborted;
}

/**
 * Checks the tree before any model call: components render (once: the run reuses what they
 * returned), agents resolve their capabilities, steps are checked but not run, and
 * render-prop children are not followed.
 */
async function checkTree(element: JuneElement, run: RunPass): Promise<void> {
  const { rendering, signal } = run.services.abort;
  const pass = new CheckPass({
    renders: run.renders,
    rendering,
    priceSettings: run.services.settings,
  });
  const frame = createRunFrame({ pass, runId: 'validate', prefix: [], signal });
  await evaluate(element, { run: frame, parentId: frame.nodeId });
}

/** The outermost run's node as its events built it. */
function runNode(frame: RunFrame<RunPass>): TraceNode {
  return frame.pass.services.log.trace.nodes.get(frame.nodeId) ?? frameTrace(frame).root;
}

/**
 * Settles a run whose work did not stop within `graceMs` of its abort: its `run-finish`
 * closes every node still open, and the error names what did not stop.
 */
function abandonedError(frame: RunFrame<RunPass>, graceMs: number): RunAbortedError {
  const { abort, log } = frame.pass.services;
  const calls = [...abort.calls.values()];
  const unstopped = unstoppedWork(runNode(frame), {
    calls,
    components: [...abort.rendering].map((entry) => entry.component),
  });
  const error = new RunAbortedError(abort.signal.reason, { unstopped, graceMs });
  const left = new RunAbortedError(
    `this had not stopped ${graceMs} ms after the abort; the run settled without it`,
  );
  log.emit({
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
