import type { GenericToolApprovalFunction, ModelMessage, ToolSet } from 'ai';
import type { DurablePlace, ToolCallAt } from './durable-engine.js';

/**
 * The AI SDK's call-level `toolApproval` for one step's calls: one function that decides,
 * for every tool call, whether it waits for a person's answer (`'user-approval'`) or runs
 * (`undefined`). June never lets the AI SDK decide a call by itself (no automatic
 * `'approved'` or `'denied'`): a policy's answers go through June's approvals, which record
 * them as automatic.
 */
export type StepToolApproval = GenericToolApprovalFunction<ToolSet, any, any>;

/** What {@link stepToolApproval} asks of a run with a durable engine (a `DurableCalls`). */
export interface ApprovalDecider {
  /** True when every tool's requirement must go through {@link needsApproval} (a resume or replay). */
  readonly decidesApprovals: boolean;
  /** The call id of the tool call `toolCallId` at `place`. */
  callId(place: DurablePlace, toolCallId: string): string;
  /** Whether the call needs approval: what the engine recorded, else `decide()`. */
  needsApproval(
    call: Omit<ToolCallAt, 'composite' | 'abortSignal'>,
    decide: () => boolean | PromiseLike<boolean>,
  ): Promise<boolean>;
}

type NeedsApproval =
  | boolean
  | ((
      input: unknown,
      options: { toolCallId: string; messages: ModelMessage[]; context?: unknown },
    ) => boolean | PromiseLike<boolean>);

/**
 * The `toolApproval` of one step's calls. The AI SDK's `toolApproval` replaces every tool's
 * own `needsApproval`, so this one honours them itself: a call waits for approval exactly
 * when its tool's `needsApproval` (as the step's scope resolved it: `<RequireApproval>`
 * makes it `true`, a grant carries the parent's) is `true` or a function that says so for
 * the call's input. With a durable engine (`engine`, at `place`), what the engine recorded
 * about the call decides first; a tool whose requirement is a function, and every tool on a
 * resume or replay, goes through it.
 *
 * @example
 * ```ts
 * streamText({ ...options, tools, toolApproval: stepToolApproval(tools) });
 * ```
 */
export function stepToolApproval(
  tools: ToolSet,
  engine?: { decider: ApprovalDecider; place: DurablePlace },
): StepToolApproval {
  return async ({ toolCall, toolsContext, messages }) => {
    const { toolCallId, toolName, input } = toolCall;
    const tool = Object.hasOwn(tools, toolName) ? tools[toolName] : undefined;
    const own = (tool as { needsApproval?: NeedsApproval } | undefined)?.needsApproval;
    const decide = async (): Promise<boolean> =>
      typeof own === 'function'
        ? (await own.call(tool, input, {
            toolCallId,
            messages,
            context: (toolsContext as Record<string, unknown> | undefined)?.[toolName],
          })) === true
        : own === true;
    const viaEngine =
      engine !== undefined &&
      tool?.execute !== undefined &&
      (typeof own === 'function' || engine.decider.decidesApprovals);
    const needed = viaEngine
      ? await engine.decider.needsApproval(
          {
            place: engine.place,
            call: engine.decider.callId(engine.place, toolCallId),
            tool: toolName,
            input,
            toolCallId,
          },
          decide,
        )
      : await decide();
    return needed ? 'user-approval' : undefined;
  };
}
