import type { ToolSet } from 'ai';
import { mapExecutes } from '../capabilities/map-executes.js';
import type { JournalPlace } from './journal-record.js';

/**
 * Marks a composite tool (its `execute` starts a child run); the journal adds a replayed
 * composite call's recorded usage to the calling run.
 */
export const compositeToolMarker: unique symbol = Symbol.for('june.composite-tool') as never;

/** What {@link journalTools} asks of the run's journal (a {@link RunJournal}). */
export interface ToolCallJournal {
  /**
   * Runs one tool execution through the journal: answered from it when recorded (a recorded
   * error is thrown again), else `execute` runs and what it gave is recorded.
   */
  toolCall(place: JournalPlace, call: { tool: string; input: unknown; toolCallId: string; abortSignal?: AbortSignal; composite: boolean }, execute: () => unknown): unknown;
}

/**
 * The tools of one step with their executions journaled under `place`: a tool call that
 * finished before (same place, same tool call id) gives its recorded result again without
 * running `execute`. Tools without `execute` are left as they are.
 *
 * @example
 * ```ts
 * runStep({ ...input, tools: journalTools(agent.tools, { step: 'release' }, journal) });
 * ```
 */
export function journalTools(tools: ToolSet, place: JournalPlace, journal: ToolCallJournal): ToolSet {
  return mapExecutes(tools, (execute, name, tool) => {
    const composite = (tool as Record<symbol, unknown>)[compositeToolMarker] === true;
    return (input, options) =>
      journal.toolCall(place, { tool: name, input, toolCallId: options.toolCallId, ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}), composite }, () =>
        execute(input, options),
      ) as ReturnType<typeof execute>;
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
export function recordedExecution(execute: () => unknown, record: (outcome: { output: unknown } | { error: unknown }) => Promise<void>): unknown {
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
async function* recordLast(values: AsyncIterable<unknown>, record: (outcome: { output: unknown } | { error: unknown }) => Promise<void>): AsyncGenerator<unknown> {
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
  return typeof value === 'object' && value !== null && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}
