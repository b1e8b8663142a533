import type { ToolSet } from 'ai';
import { mapExecutes } from '../capabilities/map-executes.js';
import type { DurablePlace, ToolCallAt } from './durable-engine.js';
import { inToolCall } from './tool-call-context.js';

/**
 * Marks a composite tool (its `execute` starts a child run); a composite call answered from
 * the engine's record adds its recorded usage to the calling run.
 */
export const compositeToolMarker: unique symbol = Symbol.for('june.composite-tool') as never;

/** What {@link durableTools} asks of the run (a {@link DurableCalls}). */
export interface ToolCallMaker {
  /** The outermost run's id. */
  readonly runId: string;
  /** True when every tool's `needsApproval` must go through {@link needsApproval}. */
  readonly decidesApprovals: boolean;
  /** The call id of the tool call `toolCallId` at `place`. */
  callId(place: DurablePlace, toolCallId: string): string;
  needsApproval(
    call: Omit<ToolCallAt, 'composite' | 'abortSignal'>,
    decide: () => boolean | PromiseLike<boolean>,
  ): Promise<boolean>;
  toolCall(call: ToolCallAt, execute: () => unknown): unknown;
}

type NeedsApproval =
  | boolean
  | ((
      input: unknown,
      options: { toolCallId: string; messages: unknown[]; experimental_context?: unknown },
    ) => boolean | PromiseLike<boolean>);

/**
 * The tools of one step with their executions handed to the run's durable engine under
 * `place`: a tool call that finished before (same place, same call id) gives its recorded
 * result again without running `execute`, and what the engine recorded about a call's
 * approval decides whether it needs one. Each execution runs as its tool call
 * ({@link toolCallContext}). Tools without `execute` are left as they are.
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
      return inToolCall(context, () =>
        calls.toolCall(at, () => execute(input, options)),
      ) as ReturnType<typeof execute>;
    };
  });
  for (const [name, tool] of Object.entries(wrapped)) {
    const own = (tool as { needsApproval?: NeedsApproval }).needsApproval;
    if (!tool.execute || (typeof own !== 'function' && !calls.decidesApprovals)) continue;
    const needsApproval = (
      input: unknown,
      options: { toolCallId: string; messages: unknown[]; experimental_context?: unknown },
    ) =>
      calls.needsApproval(
        {
          place,
          call: calls.callId(place, options.toolCallId),
          tool: name,
          input,
          toolCallId: options.toolCallId,
        },
        () => (typeof own === 'function' ? own.call(tool, input, options) : own === true),
      );
    wrapped[name] = { ...tool, needsApproval } as typeof tool;
  }
  return wrapped;
}

/**
 * The tools of one step of a run without a durable engine, each execution run as its tool
 * call ({@link toolCallContext}); a call's id is `<step id>#<toolCallId>.<n>`, `n` counting
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
    return inToolCall(context, () => execute(input, options));
  });
}
