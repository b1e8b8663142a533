import type { LanguageModelUsage } from 'ai';
import type { JuneNode } from '../elements/element.js';
import { errorData } from '../errors/error-data.js';
import { traceFailures, type TraceFailures } from '../trace/trace-failures.js';
import type { Trace } from '../trace/trace-node.js';
import type { LiveTrace } from '../events/live-trace.js';
import type { EvalContext, RunFrame } from './run-state.js';
import type { RunPass } from './run-pass.js';
import { statusOf } from './settle.js';
import { isGuardTrip } from './guard-trip.js';

type Evaluate = (node: JuneNode, ctx: EvalContext) => Promise<void>;

/** What a finished run (outermost or child) gives back. */
export interface FrameOutcome {
  steps: Record<string, unknown>;
  output: unknown;
  usage: LanguageModelUsage;
  trace: Trace;
}

/** The default output of a run: its only step's result, or an object of every step's result. */
export function defaultOutput(steps: Record<string, unknown>): unknown {
  const ids = Object.keys(steps);
  return ids.length === 1 ? steps[ids[0]!] : { ...steps };
}

/**
 * The trace of a frame as its events built it (a run whose `run-start` has not come yet:
 * its node, running). Live: copy it before handing it out while the run goes on.
 */
export function frameTrace(frame: RunFrame<RunPass>, workflow?: string): Trace {
  const log = frame.pass.services.log;
  const trace = log.trace.runs.get(frame.nodeId);
  if (trace) return trace;
  const startedAt = new Date(log.createdAt).toISOString();
  return {
    version: 1,
    runId: frame.runId,
    ...(workflow ? { workflow } : {}),
    status: 'running',
    startedAt,
    root: {
      id: frame.nodeId,
      kind: 'run',
      name: workflow ?? 'run',
      status: 'running',
      startedAt,
      children: [],
    },
  };
}

/**
 * Evaluates `node` as one run (the outermost one or a child run) and settles its trace:
 * `succeeded`, `failed` or `aborted`, whatever happens. Emits `run-start` / `run-finish`.
 *
 * When the run is aborted, it waits for its tool executions (child runs included) to settle,
 * so `run-finish` comes after their cleanup.
 *
 * @throws whatever evaluation throws, after the trace is settled; the error (a `JuneError`,
 *   or an `Error` thrown by the workflow's own code) carries the run's trace as `error.trace`.
 */
export async function evaluateFrame(
  frame: RunFrame<RunPass>,
  node: JuneNode,
  evaluate: Evaluate,
  pick:
    | ((result: { steps: Record<string, unknown>; usage: LanguageModelUsage }) => unknown)
    | undefined,
  workflow?: string,
  parentToolCallId?: string,
): Promise<FrameOutcome> {
  const { log, engine, settings } = frame.pass.services;
  const forkedFrom = frame.parentId === undefined ? settings.forkedFrom : undefined;
  const place = {
    runId: frame.runId,
    nodeId: frame.nodeId,
    ...(frame.parentId !== undefined ? { parentId: frame.parentId } : {}),
  };
  log.emit({
    type: 'run-start',
    ...place,
    ...(parentToolCallId ? { parentToolCallId } : {}),
    ...(workflow ? { workflow } : {}),
    ...(forkedFrom ? { forkedFrom } : {}),
  });
  try {
    await evaluate(node, { run: frame, parentId: frame.nodeId });
    const output = pick
      ? await pick({ steps: { ...frame.steps }, usage: frame.usage })
      : defaultOutput(frame.steps);
    log.emitWith(
      { type: 'run-finish', ...place, status: 'succeeded', usage: frame.usage },
      failuresOf(frame),
    );
    return withTrace({ steps: frame.steps, output, usage: frame.usage }, () =>
      frameTrace(frame, workflow),
    );
  } catch (error) {
    if (frame.signal.aborted) await settleInflight(frame);
    // a journal that stopped the outermost run (a mismatch, a failed write) gives its error
    // a guard that tripped fails every run it stopped with its own error
    const tripped = isGuardTrip(frame.pass.services.abort.signal.reason)
      ? frame.pass.services.abort.signal.reason
      : undefined;
    const stopped = (frame.parentId === undefined ? engine.failure : undefined) ?? tripped;
    const cause = stopped instanceof Error ? stopped : error;
    const status = stopped instanceof Error ? 'failed' : statusOf(error);
    const finish = { type: 'run-finish', ...place, status, usage: frame.usage } as const;
    log.emitWith({ ...finish, error: errorData(cause) }, failuresOf(frame));
    if (error instanceof Error && !('trace' in error) && Object.isExtensible(error))
      Object.defineProperty(error, 'trace', {
        value: frameTrace(frame, workflow),
        enumerable: false,
      });
    throw error;
  }
}

/**
 * What failed inside the run without failing it (see {@link traceFailures}), for its
 * `run-finish`: read from the trace as it stands when that event is applied.
 */
function failuresOf(frame: RunFrame<RunPass>): (trace: LiveTrace) => { failures?: TraceFailures } {
  return (trace) => {
    const node = trace.nodes.get(frame.nodeId);
    const failures = node ? traceFailures(node) : undefined;
    return failures ? { failures } : {};
  };
}

/**
 * `outcome` with its `trace` read when asked for (a plain, enumerable property to whoever
 * reads it): a run whose trace is never read does not build it (see `RunLog`).
 */
function withTrace<T extends object>(outcome: T, trace: () => Trace): T & { trace: Trace } {
  return Object.defineProperty(outcome, 'trace', {
    get: trace,
    set(value: Trace) {
      Object.defineProperty(this, 'trace', {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    },
    enumerable: true,
    configurable: true,
  }) as T & { trace: Trace };
}

/**
 * Waits until every tool execution of `frame` has settled (a composite call settles only
 * after its own child run's executions), so an aborted run ends after their cleanup.
 *
 * @example
 * ```ts
 * if (frame.signal.aborted) await settleInflight(frame);
 * ```
 */
export async function settleInflight(frame: RunFrame): Promise<void> {
  while (frame.inflight.size > 0) await Promise.allSettled([...frame.inflight]);
}
