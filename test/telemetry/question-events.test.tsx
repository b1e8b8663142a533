// The span events of a question: asked and answered, marked as a question, with its prompt
// and answer when content is recorded.
import { Agent, Question, Step, answerQuestion, run } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTracing } from './support.js';

async function exported(content: { recordInputs: boolean; recordOutputs: boolean }) {
  const { exporter, provider, tracer } = memoryTracing();
  const model = scriptedModel({
    steps: {
      ship: [
        { toolCalls: [{ id: 'c1', tool: 'ask_env', input: { question: 'Where?' } }] },
        { text: 'Shipped.' },
      ],
    },
  });
  await run(
    <Agent model={model}>
      <Question name="ask_env" answer={z.enum(['staging', 'prod'])} />
      <Step id="ship" prompt="Ship 1.2" />
    </Agent>,
    {
      tracer,
      telemetry: content,
      onApproval: () => answerQuestion('staging', { answeredBy: 'ana' }),
    },
  ).result;
  await provider.forceFlush();
  return exporter.getFinishedSpans().find((span) => span.name === 'execute_tool ask_env')!;
}

describe('span events of a question', () => {
  test('the request and the answer say it is a question, with its prompt and answer', async () => {
    const span = await exported({ recordInputs: true, recordOutputs: true });
    expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'june.approval.request',
        {
          'june.approval.id': expect.any(String),
          'june.approval.kind': 'question',
          'june.question.prompt': 'Where?',
        },
      ],
      [
        'june.approval.response',
        expect.objectContaining({
          'june.approval.kind': 'question',
          'june.approval.responded': true,
          'june.approval.output': 'staging',
          'june.approval.answerer': 'ana',
        }),
      ],
    ]);
  });

  test('without recorded content, the prompt and the answer stay out', async () => {
    const span = await exported({ recordInputs: false, recordOutputs: false });
    for (const event of span.events) {
      expect(event.attributes).toMatchObject({ 'june.approval.kind': 'question' });
      expect(event.attributes).not.toHaveProperty('june.question.prompt');
      expect(event.attributes).not.toHaveProperty('june.approval.output');
    }
  });
});
