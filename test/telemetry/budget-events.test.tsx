// A <Budget> that reached its cap is a `june.budget` span event on the step's span, and its
// request's approval events name the budget.
import { Agent, Budget, Step, run } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, test } from 'vitest';
import { memoryTracing } from './support.js';

describe('span events of budgets', () => {
  test('a budget that asks and is allowed more', async () => {
    const { exporter, provider, tracer } = memoryTracing();
    const usage = { inputTokens: 90, outputTokens: 10 };
    const model = scriptedModel({
      steps: {
        a: [{ text: 'one', usage }],
        b: [{ text: 'two', usage }],
      },
    });
    const handle = run(
      <Budget name="small" tokens={100}>
        <Agent model={model}>
          <Step id="a" prompt="One" />
          <Step id="b" prompt="Two" />
        </Agent>
      </Budget>,
      { tracer },
    );
    for await (const event of handle.events)
      if (event.type === 'approval-request') handle.approve(event.request.id);
    await handle.result;
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const step = spans.find((span) => span.name === 'step b')!;
    const events = step.events.filter((event) => event.name === 'june.budget');
    expect(events.map((event) => event.attributes)).toEqual([
      {
        'june.budget.name': 'small',
        'june.budget.declaration': '<Budget name="small" tokens={100}>',
        'june.budget.action': 'ask',
        'june.budget.cap.tokens': 100,
        'june.budget.spent.tokens': 100,
      },
      {
        'june.budget.name': 'small',
        'june.budget.declaration': '<Budget name="small" tokens={100}>',
        'june.budget.action': 'allow',
        'june.budget.cap.tokens': 100,
        'june.budget.spent.tokens': 100,
      },
    ]);
    const request = spans.find((span) => span.name === 'execute_tool june-budget')!;
    expect(
      request.events
        .filter((event) => event.name.startsWith('june.approval'))
        .map((event) => [event.name, event.attributes?.['june.approval.budget']]),
    ).toEqual([
      ['june.approval.request', 'small'],
      ['june.approval.response', 'small'],
    ]);
  });
});
