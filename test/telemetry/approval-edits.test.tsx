// The span events of an approval with an edited input and of an answer instead of the tool,
// both given by an onApproval policy.
import { tool } from 'ai';
import { Agent, Step, Tool, run } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTracing } from './support.js';

async function exported(content: { recordInputs: boolean; recordOutputs: boolean }) {
  const { exporter, provider, tracer } = memoryTracing();
  const ran: string[] = [];
  const needsApproval = true;
  const model = scriptedModel({
    steps: {
      ship: [
        {
          toolCalls: [
            { id: 'c1', tool: 'deploy', input: { env: 'prod' } },
            { id: 'c2', tool: 'publish', input: { version: '1.2' } },
          ],
        },
        { text: 'Shipped.' },
      ],
    },
  });
  const result = await run(
    <Agent model={model}>
      <Tool
        name="deploy"
        value={tool({
          inputSchema: z.object({ env: z.string() }),
          needsApproval,
          execute: async ({ env }) => (ran.push(env), `deployed to ${env}`),
        })}
      />
      <Tool
        name="publish"
        value={tool({
          inputSchema: z.object({ version: z.string() }),
          needsApproval,
          execute: async () => (ran.push('publish'), 'published'),
        })}
      />
      <Step id="ship" prompt="Ship 1.2" />
    </Agent>,
    {
      tracer,
      telemetry: content,
      onApproval: (request) =>
        request.tool === 'deploy'
          ? { approved: true, input: { env: 'staging' }, answeredBy: 'ana', source: 'slack' }
          : { approved: false, output: 'published by hand', answeredBy: 'ana', source: 'slack' },
    },
  ).result;
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  const span = (name: string) => spans.find((s) => s.name === `execute_tool ${name}`)!;
  return { result, ran, deploy: span('deploy'), publish: span('publish') };
}

describe('span events of edited and answered calls', () => {
  test('an edit and an answer instead of the tool, with their content when it is recorded', async () => {
    const { result, ran, deploy, publish } = await exported({
      recordInputs: true,
      recordOutputs: true,
    });
    expect(result.output).toBe('Shipped.');
    expect(ran).toEqual(['staging']);
    expect(deploy.attributes['gen_ai.tool.call.arguments']).toBe('{"env":"staging"}');
    expect(deploy.events.at(-1)).toMatchObject({
      name: 'june.approval.response',
      attributes: {
        'june.approval.approved': true,
        'june.approval.edited': true,
        'june.approval.input': '{"env":"staging"}',
        'june.approval.source': 'slack',
        'june.approval.answerer': 'ana',
      },
    });
    expect(publish.events.at(-1)).toMatchObject({
      name: 'june.approval.response',
      attributes: {
        'june.approval.approved': false,
        'june.approval.responded': true,
        'june.approval.output': 'published by hand',
      },
    });
    expect(publish.attributes['gen_ai.tool.call.result']).toBe('published by hand');
  });

  test('without recorded content, the events say what kind of answer it was and nothing more', async () => {
    const { deploy, publish } = await exported({ recordInputs: false, recordOutputs: false });
    const edited = deploy.events.at(-1)!.attributes!;
    expect(edited['june.approval.edited']).toBe(true);
    expect(edited).not.toHaveProperty('june.approval.input');
    const responded = publish.events.at(-1)!.attributes!;
    expect(responded['june.approval.responded']).toBe(true);
    expect(responded).not.toHaveProperty('june.approval.output');
  });
});
