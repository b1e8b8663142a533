import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The tool call a tool's `execute` runs for, as June knows it:
 * - `runId`: the outermost run's id (a resumed run keeps it; child runs share it);
 * - `step`: the step path (`release:ship:go`);
 * - `toolCallId`: the provider's id for the call (providers may repeat it within a run);
 * - `call`: the call's id at its step ({@link callIdOf}: `go#0.1`, the model call and the
 *   position of the tool call in its answer), `calls`: the composite calls on the way;
 * - `key`: `<runId>/<calls…>/<call>`, unique within the run and, with a journal, the same on
 *   every resume: the idempotency key for a tool with effects outside the run.
 *
 * @example
 * ```ts
 * execute: async ({ amount }) => {
 *   const { key } = toolCallContext()!;
 *   return payments.refund({ amount, idempotencyKey: key });
 * }
 * ```
 */
export interface ToolCallContext {
  runId: string;
  step: string;
  toolCallId: string;
  call: string;
  calls: string[];
  key: string;
}

const storage = new AsyncLocalStorage<ToolCallContext>();

/**
 * The tool call whose `execute` is running (June sets it around every tool execution of a
 * run, composite tools included), or `undefined` outside one.
 *
 * @example
 * ```ts
 * const context = toolCallContext(); // { runId: '20261130-120301-3fa94c1e27b0', step: 'release', call: 'release#1.0', key: '…/release#1.0', … }
 * ```
 */
export function toolCallContext(): ToolCallContext | undefined {
  return storage.getStore();
}

/**
 * Runs `execute` as the tool call `context` ({@link toolCallContext} gives it inside).
 *
 * @example
 * ```ts
 * return inToolCall({ runId, step, toolCallId, call, calls }, () => execute(input, options));
 * ```
 */
export function inToolCall<T>(context: Omit<ToolCallContext, 'key'>, execute: () => T): T {
  return storage.run(
    { ...context, key: [context.runId, ...context.calls, context.call].join('/') },
    execute,
  );
}
