import type { LanguageModelUsage } from 'ai';
import type { RunConsumer, RunOutcome } from '../events/run-consumer.js';
import type { Trace } from '../trace/trace-node.js';

/**
 * Settles like `settled`, after every consumer's `end` has settled with the run's outcome:
 * its results, or its error (with the trace it carries, else `fallback()`'s). A consumer
 * whose `end` throws or rejects is reported as a process warning. With no consumers,
 * `settled` itself.
 *
 * @example
 * ```ts
 * const result = endConsumers(root.consumers, settled, () => ({ trace: frameTrace(frame), usage: frame.usage }));
 * ```
 */
export function endConsumers<
  R extends {
    steps: Record<string, unknown>;
    output: unknown;
    usage: LanguageModelUsage;
    trace: Trace;
  },
>(
  consumers: readonly RunConsumer[],
  settled: Promise<R>,
  fallback: () => { trace: Trace; usage: LanguageModelUsage },
): Promise<R> {
  if (!consumers.some((consumer) => consumer.end)) return settled;
  return settled.then(
    async (result) => {
      const { steps, output, usage, trace } = result;
      await endAll(consumers, { trace, usage, result: { steps, output } });
      return result;
    },
    async (error: unknown) => {
      const carried = (error as { trace?: Trace } | null | undefined)?.trace;
      const { trace, usage } = fallback();
      await endAll(consumers, { trace: carried ?? trace, usage, error });
      throw error;
    },
  );
}

async function endAll(consumers: readonly RunConsumer[], outcome: RunOutcome): Promise<void> {
  const ends = await Promise.allSettled(consumers.map(async (consumer) => consumer.end?.(outcome)));
  for (const end of ends)
    if (end.status === 'rejected')
      process.emitWarning(`june: a run consumer's end failed: ${String(end.reason)}`);
}
