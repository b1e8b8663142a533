import { tool, type LanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Agent, run, Step, Tool, type CompositeToolResult, type RunEvent } from 'june';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callsAt, findNode, recordEvents, recordingModel, toolResultsOf } from './support.js';

const failingSearch = tool({
  description: 'Search the web',
  inputSchema: z.object({ query: z.string() }),
  execute: async (): Promise<string> => {
    throw new Error('search index offline');
  },
});

function Report({ outer, inner }: { outer: LanguageModel; inner: LanguageModel }) {
  return (
    <Agent model={outer}>
      <Tool name="research" input={z.object({ question: z.string() })}>
        {({ question }) => (
          <Agent model={inner}>
            <Tool name="search" value={failingSearch} />
            <Step id="findings" prompt={`Research: ${question}`} />
          </Agent>
        )}
      </Tool>
      <Step id="report" prompt="Research how Suspense works, then summarize" />
    </Agent>
  );
}

const outerScript = () =>
  recordingModel(
    {
      report: [
        {
          toolCalls: [{ tool: 'research', input: { question: 'Suspense?' } }],
          usage: { inputTokens: 10, outputTokens: 1 },
        },
        { text: 'I could not research it.', usage: { inputTokens: 20, outputTokens: 2 } },
      ],
    },
    'outer',
  );

describe('failures inside a composite tool', () => {
  it('a throwing inner tool is a tool error the inner model sees; it goes on and the call succeeds', async () => {
    const outer = outerScript();
    const inner = recordingModel({
      'research:findings': [
        { toolCalls: [{ tool: 'search', input: { query: 'suspense' } }] },
        { text: 'Search is down; from memory: it shows a fallback.' },
      ],
    });
    const result = await run(<Report outer={outer} inner={inner} />).result;
    expect(toolResultsOf(callsAt(inner, 'research:findings')[1]!.prompt)[0]!.output).toEqual({
      type: 'error-text',
      value: 'search index offline',
    });
    expect(toolResultsOf(callsAt(outer, 'report')[1]!.prompt)[0]!.output).toEqual({
      type: 'text',
      value: 'Search is down; from memory: it shows a fallback.',
    });
    expect(findNode(result.trace.root, 'tool', 'research').status).toBe('succeeded');
  });

  it('when the child run fails, the calling model sees june: the tool "research" failed: <message>, and its step goes on', async () => {
    const outer = outerScript();
    // The inner tool throws (the inner model sees it), then the inner model's next call fails: the child run fails.
    const inner = recordingModel({
      'research:findings': [
        {
          toolCalls: [{ tool: 'search', input: { query: 'suspense' } }],
          usage: { inputTokens: 5, outputTokens: 1 },
        },
        { error: 'the model provider is overloaded' },
      ],
    });
    const handle = run(<Report outer={outer} inner={inner} />);
    const { events, done } = recordEvents(handle);
    const result = await handle.result;
    await done;

    const message = 'june: the tool "research" failed: the model provider is overloaded';
    expect(toolResultsOf(callsAt(outer, 'report')[1]!.prompt)).toEqual([
      expect.objectContaining({
        toolName: 'research',
        output: { type: 'error-text', value: message },
      }),
    ]);
    expect(result.output).toBe('I could not research it.');
    expect(events).toContainEqual({
      type: 'tool-error',
      runId: handle.runId,
      step: 'report',
      toolCallId: 'call_report_1_1',
      tool: 'research',
      error: { name: 'JuneError', message, code: 'composite-tool-failed' },
      status: 'failed',
      nodeId: expect.any(String),
      parentId: expect.any(String),
      at: expect.any(Number),
    });
    const childFinish = events.find(
      (e): e is Extract<RunEvent, { type: 'run-finish' }> =>
        e.type === 'run-finish' && e.runId === `${handle.runId}.1`,
    )!;
    expect(childFinish).toMatchObject({
      status: 'failed',
      error: { code: 'scripted-model-error', message: 'june: the model provider is overloaded' },
    });

    // The failed call keeps the child's trace and usage on the tool node; the tokens count.
    const node = findNode(result.trace.root, 'tool', 'research');
    expect(node).toMatchObject({
      status: 'failed',
      error: { code: 'composite-tool-failed', message },
    });
    const { trace, usage } = node.output as Omit<CompositeToolResult, 'output'>;
    expect(trace.status).toBe('failed');
    expect(findNode(trace.root, 'tool', 'search')).toMatchObject({
      status: 'failed',
      error: { message: 'search index offline' },
    });
    expect(usage).toMatchObject({ inputTokens: 5, outputTokens: 1 });
    expect(result.usage).toMatchObject({ inputTokens: 35, outputTokens: 4, totalTokens: 39 });
  });

  it('a model that throws inside the child run reaches the calling model the same way', async () => {
    const outer = outerScript();
    const inner = new MockLanguageModelV3({
      doStream: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:11434');
      },
    });
    const result = await run(<Report outer={outer} inner={inner} />).result;
    expect(toolResultsOf(callsAt(outer, 'report')[1]!.prompt)[0]!.output).toEqual({
      type: 'error-text',
      // (the step runner may say which model call failed before the provider's message)
      value: expect.stringMatching(
        /^june: the tool "research" failed: .*connect ECONNREFUSED 127\.0\.0\.1:11434/,
      ),
    });
    expect(result.output).toBe('I could not research it.');
  });

  it('a workflow that throws while rendering fails the call the same way', async () => {
    const outer = outerScript();
    const result = await run(
      <Agent model={outer}>
        <Tool name="research" input={z.object({ question: z.string() })}>
          {({ question }) => {
            throw new Error(`no sources for ${question}`);
          }}
        </Tool>
        <Step id="report" prompt="Research how Suspense works, then summarize" />
      </Agent>,
    ).result;
    expect(toolResultsOf(callsAt(outer, 'report')[1]!.prompt)[0]!.output).toEqual({
      type: 'error-text',
      value: 'june: the tool "research" failed: no sources for Suspense?',
    });
    expect(result.output).toBe('I could not research it.');
  });
});
