import type { ToolSet } from 'ai';
import { mapExecutes } from '../capabilities/map-executes.js';
import type { JournalPlace } from './journal-record.js';
import { inToolCall } from './tool-call-context.js';

/**
 * Marks a composite tool (its `execute` starts a child run); the journal adds a replayed
 * composite call's recorded usage to the calling run.
 */
export const compositeToolMarker: unique symbol = Symbol.for('june.composite-tool') as never;

/** One tool call as the journal sees it: its call id at its place, and what the model asked. */
export interface JournaledToolCall {
  /** The call id ({@link callIdOf}). */
  call: string;
  tool: string;
  input: unknown;
  toolCallId: string;
}

/** What {@link journalTools} asks of the run's journal (a {@link RunJournal}). */
export interface ToolCallJournal {
  /** The outermost run's id. */
  readonly runId: string;
  /** True when recorded approvals decide (a resume or a replay): every tool's `needsApproval` goes through the journal. */
  readonly decidesApprovals: boolean;
  /** The call id of the tool call `toolCallId` at `place`. */
  callId(place: JournalPlace, toolCallId: string): string;
  /**
   * Whether a tool call needs approval: what the journal recorded for it decides (a recorded
   * answer or request: yes; a recorded execution without one: no), else `decide()` (the
   * tool's own `needsApproval`), asked once per call.
   */
  needsApproval(
    place: JournalPlace,
    call: JournaledToolCall,
    decide: () => boolean | PromiseLike<boolean>,
  ): Promise<boolean>;
  /**
   * Runs one tool execution through the journal: answered from it when recorded (a recorded
   * error is thrown again), else `execute` runs and what it gave is recorded.
   */
  toolCall(
    place: JournalPlace,
    call: JournaledToolCall & { abortSignal?: AbortSignal; composite: boolean },
    execute: () => unknown,
  ): unknown;
}

type NeedsApproval =
  | boolean
  | ((
      input: unknown,
      options: { toolCallId: string; messages: unknown[]; experimental_context?: unknown },
    ) => boolean | PromiseLike<boolean>);

/**
 * The tools of one step with their executions journaled under `place`: a tool call that
 * finished before (same place, same call id) gives its recorded result again without
 * running `execute`, and what the journal recorded about a call's approval decides whether
 * it needs one. Each execution runs as its tool call ({@link toolCallContext}). Tools
 * without `execute` are left as they are.
 *
 * @example
 * ```ts
 * runStep({ ...input, tools: journalTools(agent.tools, { step: 'release' }, journal) });
 * ```
 */
export function journalTools(
  tools: ToolSet,
  place: JournalPlace,
  journal: ToolCallJournal,
): ToolSet {
  const wrapped = mapExecutes(tools, (execute, name, tool) => {
    const composite = (tool as Record<symbol, unknown>)[compositeToolMarker] === true;
    return (input, options) => {
      const call = journal.callId(place, options.toolCallId);
      const context = {
        runId: journal.runId,
        step: place.step,
        toolCallId: options.toolCallId,
        call,
        calls: place.calls ?? [],
      };
      const journaled = {
        call,
        tool: name,
        input,
        toolCallId: options.toolCallId,
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
        composite,
      };
      return inToolCall(context, () =>
        journal.toolCall(place, journaled, () => execute(input, options)),
      ) as ReturnType<typeof execute>;
    };
  });
  for (const [name, tool] of Object.entries(wrapped)) {
    const own = (tool as { needsApproval?: NeedsApproval }).needsApproval;
    if (!tool.execute || (typeof own !== 'function' && !journal.decidesApprovals)) continue;
    const needsApproval = (
      input: unknown,
      options: { toolCallId: string; messages: unknown[]; experimental_context?: unknown },
    ) =>
      journal.needsApproval(
        place,
        {
          call: journal.callId(place, options.toolCallId),
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
 * The tools of one step of a run that keeps no journal, each execution run as its tool call
 * ({@link toolCallContext}); a call's id is `<step id>#<toolCallId>.<n>`, `n` counting the
 * executions with that `toolCallId` at `place`.
 *
 * @example
 * ```ts
 * runStep({ ...input, tools: toolCallTools(agent.tools, { step: 'release' }, runId) });
 * ```
 */
export function toolCallTools(tools: ToolSet, place: JournalPlace, runId: string): ToolSet {
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

/**
 * Runs `execute` (a tool's execution) and hands what it gave to `record` before passing it on:
 * `{ output }` once a promise resolves (or an async iterable of outputs ends: its last item),
 * `{ error }` when it throws or rejects. The error is thrown again after `record` settles.
 *
 * @example
 * ```ts
 * return recordedExecution(() => tool.execute(input, options), (outcome) => store.append(runId, { ...record, ...outcome }));
 * ```
 */
export function recordedExecution(
  execute: () => unknown,
  record: (outcome: { output: unknown } | { error: unknown }) => Promise<void>,
): unknown {
  let value: unknown;
  try {
    value = execute();
  } catch (error) {
    return record({ error }).then(() => Promise.reject(error));
  }
  if (isAsyncIterable(value)) return recordLast(value, record);
  return Promise.resolve(value).then(
    async (output) => {
      await record({ output });
      return output;
    },
    async (error: unknown) => {
      await record({ error });
      throw error;
    },
  );
}

/** Passes an async iterable's items on and records the last one (a tool's final output) once it ends. */
async function* recordLast(
  values: AsyncIterable<unknown>,
  record: (outcome: { output: unknown } | { error: unknown }) => Promise<void>,
): AsyncGenerator<unknown> {
  let last: unknown;
  try {
    for await (const value of values) {
      last = value;
      yield value;
    }
  } catch (error) {
    await record({ error });
    throw error;
  }
  await record({ output: last });
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}
