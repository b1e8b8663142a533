// Each <Guard> decision is a span event on the span of what it decided about, and an
// escalated call's approval events name the guard that escalated it.
import { tool } from 'ai';
import { Agent, Guard, Step, Tool, run } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTracing } from './support.js';

describe('span events of guard decisions', () => {
  test('a rejected call, an escalated call and an allowed output', async () => {
    const { exporter, provider, tracer } = memoryTracing();
    const deploy = tool({
      inputSchema: z.object({ env: z.string() }),
      execute: async ({ env }) => `deployed to ${env}`,
    });
    const model = scriptedModel({
      steps: {
        ship: [
          {
            toolCalls: [
              { id: 'c1', tool: 'deploy', input: { env: 'prod' } },
              { id: 'c2', tool: 'deploy', input: { env: 'staging' } },
            ],
          },
          { text: 'Shipped to staging.' },
        ],
      },
    });
    const handle = run(
      <Guard
        name="no-prod"
        check={({ kind, input }) =>
          kind !== 'tool-input'
            ? 'allow'
            : (input as { env: string }).env === 'prod'
              ? { action: 'reject', reason: 'not today' }
              : { action: 'escalate', reason: 'a person checks staging' }
        }
      >
        <Agent model={model}>
          <Tool name="deploy" value={deploy} />
          <Step id="ship" prompt="Ship" />
        </Agent>
      </Guard>,
      { tracer },
    );
    for await (const event of handle.events)
      if (event.type === 'approval-request') handle.approve(event.request.id);
    await handle.result;
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const tools = spans.filter((span) => span.name === 'execute_tool deploy');
    const decisions = (span: (typeof spans)[number]) =>
      span.events.filter((event) => event.name === 'june.guard.decision');
    expect(tools.map((span) => decisions(span).map((event) => event.attributes))).toEqual([
      [
        {
          'june.guard.name': 'no-prod',
          'june.guard.declaration': '<Guard name="no-prod">',
          'june.guard.check': 'tool-input',
          'june.guard.action': 'reject',
          'june.guard.reason': 'not today',
        },
      ],
      [
        {
          'june.guard.name': 'no-prod',
          'june.guard.declaration': '<Guard name="no-prod">',
          'june.guard.check': 'tool-input',
          'june.guard.action': 'escalate',
          'june.guard.reason': 'a person checks staging',
        },
      ],
    ]);
    expect(tools[0]!.attributes['june.tool.guards']).toEqual(['<Guard name="no-prod">']);
    const approvals = tools[1]!.events.filter((event) => event.name.startsWith('june.approval'));
    expect(
      approvals.map((event) => [event.name, event.attributes?.['june.approval.guard']]),
    ).toEqual([
      ['june.approval.request', 'no-prod'],
      ['june.approval.response', 'no-prod'],
    ]);
    const outputs = spans.flatMap((span) =>
      decisions(span)
        .filter((event) => event.attributes?.['june.guard.check'] === 'output')
        .map((event) => [span.name, event.attributes?.['june.guard.action']]),
    );
    expect(outputs).toEqual([['step ship', 'allow']]);
  });
});
