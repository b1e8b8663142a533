import { tool } from 'ai';
import { Agent, RequireApproval, run, Step, Tool } from 'june';
import { afterEach, expect, test } from 'vitest';
import { trace } from '@opentelemetry/api';
import { z } from 'zod';
import { streamModel } from '../helpers/mock-stream-model.js';
import { runTelemetry } from '../../src/telemetry/run-telemetry.js';
import { memoryTracing } from './support.js';

const deploy = tool({
  description: 'Deploy a build',
  inputSchema: z.object({ env: z.string() }),
  execute: async ({ env }) => `deployed to ${env}`,
});

/** A plan step that answers at once, then a ship step whose deploy waits for a person. */
function Release() {
  return (
    <Agent
      model={streamModel([
        { text: 'Plan: deploy to staging.' },
        { toolCalls: [{ id: 'c-deploy', name: 'deploy', input: { env: 'staging' } }] },
        { text: 'Shipped.' },
      ])}
      name="releaser"
    >
      <RequireApproval>
        <Tool name="deploy" value={deploy} />
      </RequireApproval>
      <Step id="plan" prompt="Plan the release" />
      <Step id="ship" prompt="Ship it" />
    </Agent>
  );
}

afterEach(() => trace.disable());

test('spans are exported as the run goes: a finished step’s spans while the run waits on a later approval', async () => {
  const { exporter, tracer } = memoryTracing();
  const handle = run(<Release />, { tracer });
  const names = () => exporter.getFinishedSpans().map((span) => span.name);
  for await (const event of handle.events) {
    if (event.type !== 'approval-request') continue;
    // the run waits for a person: what finished is in the backend already, the rest is not
    expect(names()).toEqual(['chat mock-model-id', 'step plan', 'chat mock-model-id']);
    const open = handle.trace().root.children[0]!.children;
    expect(open.map((node) => [node.name, node.status])).toEqual([
      ['plan', 'succeeded'],
      ['ship', 'running'],
    ]);
    handle.approve(event.request.id);
  }
  await handle.result;
  expect(names().slice(3)).toEqual([
    'execute_tool deploy',
    'chat mock-model-id',
    'step ship',
    'invoke_agent releaser',
    'run Release',
  ]);
  const spans = exporter.getFinishedSpans();
  expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  const plan = spans.find((span) => span.name === 'step plan')!;
  const agent = spans.find((span) => span.name === 'invoke_agent releaser')!;
  expect(plan.parentSpanContext?.spanId).toBe(agent.spanContext().spanId);
});

test('with no tracer provider registered, run() attaches no exporter; one registered later is used by the next run', async () => {
  expect(runTelemetry({ tracer: undefined, content: undefined })).toBeUndefined();
  expect(runTelemetry({ tracer: false, content: undefined })).toBeUndefined();
  await run(<Release />, { onApproval: () => true }).result;

  const { exporter, provider } = memoryTracing();
  trace.setGlobalTracerProvider(provider);
  await run(<Release />, { onApproval: () => true }).result;
  expect(exporter.getFinishedSpans().at(-1)!.name).toBe('run Release');
});
