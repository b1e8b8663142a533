import type { LanguageModelUsage } from 'ai';
import type { JuneNode } from '../elements/element.js';
import { closeNode } from '../trace/trace-builder.js';
import { traceFailures } from '../trace/trace-failures.js';
import type { Trace } from '../trace/trace-node.js';
import type { EvalContext, RunFrame } from './run-state.js';
import { settleOnError } from './settle.js';

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

/** The trace of a frame as plain data (a snapshot, safe to serialize), redacted as the run says. */
export function frameTrace(frame: RunFrame, workflow?: string): Trace {
  const root = frame.trace;
  return frame.root.redactor.value<Trace>({
    version: 1,
    runId: frame.runId,
    ...(workflow ? { workflow } : {}),
    status: root.status,
    startedAt: root.startedAt,
    ...(root.endedAt ? { endedAt: root.endedAt } : {}),
    root,
  });
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
  frame: RunFrame,
  node: JuneNode,
  evaluate: Evaluate,
  pick:
    | ((result: { steps: Record<string, unknown>; usage: LanguageModelUsage }) => unknown)
    | undefined,
  workflow?: string,
  parentToolCallId?: string,
): Promise<FrameOutcome> {
  const root = frame.root;
  root.emit({
    type: 'run-start',
    runId: frame.runId,
    ...(parentToolCallId ? { parentToolCallId } : {}),
    ...(workflow ? { workflow } : {}),
  });
  try {
    await evaluate(node, { run: frame, parentTrace: frame.trace });
    const output = pick
      ? await pick({ steps: { ...frame.steps }, usage: frame.usage })
      : defaultOutput(frame.steps);
    frame.trace.usage = frame.usage;
    countFailures(frame);
    closeNode(frame.trace, 'succeeded');
    root.emit({ type: 'run-finish', runId: frame.runId, status: 'succeeded', usage: frame.usage });
    return { steps: frame.steps, output, usage: frame.usage, trace: frameTrace(frame, workflow) };
  } catch (error) {
    if (frame.signal.aborted) await settleInflight(frame);
    frame.trace.usage = frame.usage;
    countFailures(frame);
    const status = settleOnError(frame.trace, error);
    root.emit({
      type: 'run-finish',
      runId: frame.runId,
      status,
      usage: frame.usage,
      error: frame.trace.error!,
    });
    if (error instanceof Error && !('trace' in error) && Object.isExtensible(error))
      Object.defineProperty(error, 'trace', {
        value: frameTrace(frame, workflow),
        enumerable: false,
      });
    throw error;
  }
}

/** Records on the run node what failed inside it (see {@link traceFailures}). */
function countFailures(frame: RunFrame): void {
  const failures = traceFailures(frame.trace);
  if (failures) frame.trace.failures = failures;
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
