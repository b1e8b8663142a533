import { tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { Agent, run, Step, Tool, type CompositeToolResult, type RunEvent } from 'june';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { turnParts, userTexts, type MockTurn } from '../helpers/mock-stream-model.js';
import {
  callsAt,
  findNode,
  nodesOf,
  recordEvents,
  recordingModel,
  toolResultsOf,
} from './support.js';

/** An inner model that answers from its own prompt: it searches once, then answers about its question. */
function innerModel() {
  const answer = (options: LanguageModelV4CallOptions): MockTurn => {
    const question = userTexts(options.prompt)[0]!.replace('Research: ', '');
    const searched = options.prompt.some((message) => message.role === 'tool');
    return searched
      ? { text: `answer about ${question}`, usage: [3, 2] }
      : {
          toolCalls: [{ id: `search-${question}`, name: 'search', input: { query: question } }],
          usage: [3, 1],
        };
  };
  return new MockLanguageModelV4({
    doStream: async (options) => ({
      stream: new ReadableStream({
        start(controller) {
          for (const part of turnParts(answer(options))) controller.enqueue(part);
          controller.close();
        },
      }),
    }),
  });
}

describe('several calls of one composite tool in one turn', () => {
  it('run as separate child runs, each with its own trace, and all their answers reach the model', async () => {
    const outer = recordingModel({
      report: [
        {
          toolCalls: [
            { tool: 'research', input: { question: 'lazy' } },
            { tool: 'research', input: { question: 'use' } },
          ],
          usage: { inputTokens: 10, outputTokens: 2 },
        },
        { text: 'Both researched.', usage: { inputTokens: 10, outputTokens: 2 } },
      ],
    });
    const ran: string[] = [];
    const search = tool({
      inputSchema: z.object({ query: z.string() }),
      needsApproval: true,
      execute: async ({ query }) => {
        ran.push(query);
        return `results for ${query}`;
      },
    });
    const handle = run(
      <Agent model={outer}>
        <Tool name="research" input={z.object({ question: z.string() })}>
          {({ question }) => (
            <Agent model={innerModel()}>
              <Tool name="search" value={search} />
              <Step id="findings" prompt={`Research: ${question}`} />
            </Agent>
          )}
        </Tool>
        <Step id="report" prompt="Research lazy and use" />
      </Agent>,
    );
    const { events, done } = recordEvents(handle);

    // Both child runs wait for approval at once; answer them in reverse order.
    const pending = async () => {
      for await (const event of handle.events)
        if (event.type === 'approval-request' && handle.pendingApprovals.length === 2)
          return handle.pendingApprovals;
      throw new Error('the run ended before two approvals were pending');
    };
    const [first, second] = await pending();
    expect([first!.step, second!.step]).toEqual(['research:findings', 'research:findings']);
    handle.approve(second!.id);
    handle.approve(first!.id);

    const result = await handle.result;
    await done;
    expect(ran.sort()).toEqual(['lazy', 'use']);
    expect(toolResultsOf(callsAt(outer, 'report')[1]!.prompt).map((part) => part.output)).toEqual([
      { type: 'text', value: 'answer about lazy' },
      { type: 'text', value: 'answer about use' },
    ]);
    const calls = nodesOf(result.trace.root).filter(
      (node) => node.kind === 'tool' && node.name === 'research',
    );
    const children = calls.map((node) => node.output as CompositeToolResult);
    expect(children.map((child) => findNode(child.trace.root, 'step', 'findings').prompt)).toEqual([
      'Research: lazy',
      'Research: use',
    ]);
    expect(children.map((child) => child.trace.runId).sort()).toEqual([
      `${handle.runId}.1`,
      `${handle.runId}.2`,
    ]);
    // 20 + 2 × 6 in, 4 + 2 × 3 out.
    expect(result.usage).toMatchObject({ inputTokens: 32, outputTokens: 10, totalTokens: 42 });
    expect(
      events
        .filter((e): e is Extract<RunEvent, { type: 'run-finish' }> => e.type === 'run-finish')
        .map((e) => e.status),
    ).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });
});
