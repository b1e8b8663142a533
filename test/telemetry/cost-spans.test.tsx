// What a backend reads of a run's cost: each chat span's own (`june.cost.usd`), and the
// totals of steps and runs, child runs included, as the trace has them.
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { memoryJournalStore, run, subtreeCost } from 'june';
import { scriptedModel, type ModelScript } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { Plan } from '../fixtures/costs/plan.js';
import { memoryTracing } from './support.js';

const script: ModelScript = {
  steps: {
    plan: [
      {
        toolCalls: [{ tool: 'research', input: { topic: 'prices' } }],
        usage: { inputTokens: 5_000, outputTokens: 300 },
      },
      { text: 'Planned.', usage: { inputTokens: 6_000, outputTokens: 200 } },
    ],
    'research:dig': [{ text: 'Found it.', usage: { inputTokens: 2_000, outputTokens: 100 } }],
  },
};

// the scripted model is named after its script: `june:planner` prices it
const prices = { 'june:planner': { inputPerMTok: 1, outputPerMTok: 10 } };
const model = () => scriptedModel(script, { name: 'planner' });

const spanOf = (spans: readonly ReadableSpan[], name: string) =>
  spans.find((span) => span.name === name)!;
const chats = (spans: readonly ReadableSpan[]) =>
  spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
const costOf = (span: ReadableSpan) => span.attributes['june.cost.usd'] as number | undefined;

describe('the cost on spans', () => {
  it('each chat span has its call’s cost; step and run spans their totals, child runs included', async () => {
    const { exporter, tracer } = memoryTracing();
    const result = await run(<Plan model={model()} />, { tracer, prices }).result;
    const spans = exporter.getFinishedSpans();

    const calls = chats(spans).map(costOf);
    expect(calls).toHaveLength(3);
    expect(calls.every((cost) => typeof cost === 'number')).toBe(true);
    const total = (5_000 + 6_000 + 2_000) * 1e-6 + (300 + 200 + 100) * 10e-6;
    expect(calls.reduce((a, b) => a! + b!, 0)).toBeCloseTo(total, 12);

    expect(costOf(spanOf(spans, 'run Plan'))).toBeCloseTo(total, 12);
    expect(costOf(spanOf(spans, 'run Plan'))).toBe(subtreeCost(result.trace.root).usd);
    // the step counts the composite call's child run; the child run its own call
    expect(costOf(spanOf(spans, 'step plan'))).toBeCloseTo(total, 12);
    expect(costOf(spanOf(spans, 'step research:dig'))).toBeCloseTo(2_000e-6 + 100 * 10e-6, 12);
    expect(costOf(spanOf(spans, 'run research'))).toBeCloseTo(2_000e-6 + 100 * 10e-6, 12);
    expect(spanOf(spans, 'run Plan').attributes['june.cost.unpriced_calls']).toBeUndefined();
  });

  it('a replayed chat span carries no cost (the process that made the call exported it); the run span still has the total', async () => {
    const journal = memoryJournalStore();
    const first = run(<Plan model={model()} />, { journal, prices });
    const recorded = await first.result;
    const recording = await journal.read(first.runId);

    const { exporter, tracer } = memoryTracing();
    await run(<Plan model={model()} />, { tracer, replay: recording }).result;
    const spans = exporter.getFinishedSpans();
    expect(chats(spans).map(costOf)).toEqual([undefined, undefined, undefined]);
    expect(costOf(spanOf(spans, 'run Plan'))).toBe(subtreeCost(recorded.trace.root).usd);
  });

  it('a run whose model has no price says how many calls have an unknown cost, and no cost', async () => {
    const { exporter, tracer } = memoryTracing();
    const result = await run(<Plan model={model()} />, { tracer }).result;
    const spans = exporter.getFinishedSpans();
    const runSpan = spanOf(spans, 'run Plan');
    expect(costOf(runSpan)).toBeUndefined();
    expect(runSpan.attributes['june.cost.unpriced_calls']).toBe(3);
    expect(chats(spans).map(costOf)).toEqual([undefined, undefined, undefined]);
    expect(subtreeCost(result.trace.root)).toMatchObject({ usd: undefined, unpriced: 3 });
  });
});
