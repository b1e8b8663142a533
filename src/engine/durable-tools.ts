import type { ToolSet } from 'ai';
import { mapExecutes } from '../capabilities/map-executes.js';
import type { DurablePlace, ToolCallAt } from './durable-engine.js';
import { inToolCall } from './tool-call-context.js';
import { withToolFailures } from './tool-failure.js';

/**
 * Marks a composite tool (its `execute` starts a child run); a composite call answered from
 * the engine's record adds its recorded usage to the calling run.
 */
export const compositeToolMarker: unique symbol = Symbol.for('june.composite-tool') as never;

/** What {@link durableTools} asks of the run (a {@link DurableCalls}). */
export interface ToolCallMaker {
  /** The outermost run's id. */
  readonly runId: string;
  /** The call id of the tool call `toolCallId` at `place`. */
  callId(place: DurablePlace, toolCallId: string): string;
  toolCall(call: ToolCallAt, execute: () => unknown): unknown;
}

/**
 * The tools of one step with their executions handed to the run's durable engine under
 * `place`: a tool call that finished before (same place, same call id) gives its recorded
 * result again without running `execute`. Each execution runs as its tool call
 * ({@link toolCallContext}), and what it throws reaches the model as its message
 * ({@link ToolFailure}). Tools without `execute` are left as they are. Whether a call
 * needs approval is decided by the step's `toolApproval` ({@link stepToolApproval}).
 *
 * @example
 * ```ts
 * runStep({ ...input, tools: durableTools(agent.tools, { step: 'release' }, calls) });
 * ```
 */
export function durableTools(tools: ToolSet, place: DurablePlace, calls: ToolCallMaker): ToolSet {
  const wrapped = mapExecutes(tools, (execute, name, tool) => {
    const composite = (tool as Record<symbol, unknown>)[compositeToolMarker] === true;
    return (input, options) => {
      const call = calls.callId(place, options.toolCallId);
      const context = {
        runId: calls.runId,
        step: place.step,
        toolCallId: options.toolCallId,
        call,
        calls: place.calls ?? [],
      };
      const at: ToolCallAt = {
        place,
        call,
        tool: name,
        input,
        toolCallId: options.toolCallId,
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
        composite,
      };
      return withToolFailures(() =>
        inToolCall(context, () => calls.toolCall(at, () => execute(input, options))),
      ) as ReturnType<typeof execute>;
    };
  });
  return wrapped;
}

/**
 * The tools of one step of a run without a durable engine, each execution run as its tool
 * call ({@link toolCallContext}), what it throws reaching the model as its message
 * ({@link ToolFailure}); a call's id is `<step id>#<toolCallId>.<n>`, `n` counting
 * the executions with that `toolCallId` at `place`.
 *
 * @example
 * ```ts
 * runStep({ ...input, tools: toolCallTools(agent.tools, { step: 'release' }, runId) });
 * ```
 */
export function toolCallTools(tools: ToolSet, place: DurablePlace, runId: string): ToolSet {
  const seen = new Map<string, number>();
  const stepId = place.step.slice(place.step.lastIndexOf(':') + 1);
  return mapExecutes(tools, (execute) => (input, options) => {
    const n = seen.get(options.toolCallId) ?? 0;
    seen.set(options.toolCallId, n + 1);
    const context = {
      runId,
      step: place.step,
      toolCallId: options.toolCallId,
      call: `${stepId}#${options.toolCallId}.${n}`,
      calls: place.calls ?? [],
    };
    return withToolFailures(() => inToolCall(context, () => execute(input, options)));
  });
}
