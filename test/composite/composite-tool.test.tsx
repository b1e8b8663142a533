import { tool, type LanguageModel } from 'ai';
import {
  Agent,
  inspect,
  Namespace,
  run,
  Step,
  Tool,
  type CompositeToolResult,
  type RunEvent,
} from 'june';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  callsAt,
  findNode,
  recordEvents,
  recordingModel,
  toolNamesOf,
  toolResultsOf,
} from './support.js';

const search = tool({
  description: 'Search the web',
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }) => `results for ${query}`,
});
const question = z.object({ question: z.string() });

/** The spec's Report: one composite tool `research` whose workflow has its own agent and `search`. */
function Report({ outer, inner }: { outer: LanguageModel; inner: LanguageModel }) {
  return (
    <Agent model={outer}>
      <Tool
        name="research"
        description="Research a question and report what was found"
        input={question}
      >
        {({ question }) => (
          <Agent model={inner}>
            <Tool name="search" value={search} />
            <Step id="findings" prompt={`Research: ${question}`} />
          </Agent>
        )}
      </Tool>
      <Step id="report" prompt="Research how Suspense works, then write a summary" />
    </Agent>
  );
}

const findings = 'Suspense shows a fallback until its children are ready.';
function reportModels() {
  const outer = recordingModel(
    {
      report: [
        {
          toolCalls: [{ tool: 'research', input: { question: 'How does Suspense work?' } }],
          usage: { inputTokens: 100, outputTokens: 10 },
        },
        {
          text: 'Summary: Suspense waits, showing a fallback.',
          usage: { inputTokens: 200, outputTokens: 20 },
        },
      ],
    },
    'outer',
  );
  const inner = recordingModel(
    {
      'research:findings': [
        {
          toolCalls: [{ tool: 'search', input: { query: 'react suspense' } }],
          usage: { inputTokens: 30, outputTokens: 3 },
        },
        { text: findings, usage: { inputTokens: 50, outputTokens: 5 } },
      ],
    },
    'inner',
  );
  return { outer, inner };
}

describe('composite <Tool>', () => {
  it("gives the calling model one tool, research, and the workflow's model only its own tools", async () => {
    const { outer, inner } = reportModels();
    const result = await run(<Report outer={outer} inner={inner} />).result;

    expect(result.output).toBe('Summary: Suspense waits, showing a fallback.');
    const outerCalls = callsAt(outer, 'report');
    expect(outerCalls).toHaveLength(2);
    for (const call of outerCalls) expect(toolNamesOf(call)).toEqual(['research']);
    const offered = outerCalls[0]!.tools![0]!;
    expect(offered).toMatchObject({
      type: 'function',
      name: 'research',
      description: 'Research a question and report what was found',
    });
    expect(offered.type === 'function' && offered.inputSchema).toMatchObject({
      properties: { question: { type: 'string' } },
      required: ['question'],
    });

    const innerCalls = callsAt(inner, 'research:findings');
    expect(innerCalls).toHaveLength(2);
    for (const call of innerCalls) expect(toolNamesOf(call)).toEqual(['search']);
    outer.scripted.assertAllTurnsUsed();
    inner.scripted.assertAllTurnsUsed();
  });

  it('records { output, trace, usage } as the tool result, while the model gets only output', async () => {
    const { outer, inner } = reportModels();
    const handle = run(<Report outer={outer} inner={inner} />);
    const { events, done } = recordEvents(handle);
    const result = await handle.result;
    await done;

    const toolResult = events.find(
      (e): e is Extract<RunEvent, { type: 'tool-result' }> =>
        e.type === 'tool-result' && e.tool === 'research',
    )!;
    expect(toolResult.step).toBe('report');
    const value = toolResult.output as CompositeToolResult;
    expect(Object.keys(value).sort()).toEqual(['output', 'trace', 'usage']);
    expect(value.output).toBe(findings);
    expect(value.usage).toMatchObject({ inputTokens: 80, outputTokens: 8, totalTokens: 88 });
    expect(value.trace).toMatchObject({
      version: 1,
      runId: `${handle.runId}.1`,
      workflow: 'research',
      status: 'succeeded',
    });
    const childStep = findNode(value.trace.root, 'step', 'findings');
    expect(childStep).toMatchObject({
      step: 'research:findings',
      prompt: 'Research: How does Suspense work?',
      result: findings,
    });
    expect(findNode(childStep, 'tool', 'search')).toMatchObject({
      input: { query: 'react suspense' },
      output: 'results for react suspense',
    });

    // The calling run's trace keeps the child tree under the tool call node.
    const toolNode = findNode(result.trace.root, 'tool', 'research');
    expect(toolNode.status).toBe('succeeded');
    expect(toolNode.output).toEqual(JSON.parse(JSON.stringify(value)));

    // The model's next prompt holds only the output, as text.
    const secondPrompt = callsAt(outer, 'report')[1]!.prompt;
    expect(toolResultsOf(secondPrompt)).toEqual([
      expect.objectContaining({ toolName: 'research', output: { type: 'text', value: findings } }),
    ]);
    const shown = JSON.stringify(secondPrompt);
    expect(shown).not.toContain(value.trace.runId);
    expect(shown).not.toContain('results for react suspense');
  });

  it("adds the child run's tokens to the calling run's usage, exactly", async () => {
    const { outer, inner } = reportModels();
    const handle = run(<Report outer={outer} inner={inner} />);
    const { events, done } = recordEvents(handle);
    const result = await handle.result;
    await done;

    // outer: 100 + 200 in, 10 + 20 out; inner: 30 + 50 in, 3 + 5 out.
    expect(result.usage).toMatchObject({ inputTokens: 380, outputTokens: 38, totalTokens: 418 });
    expect(result.trace.root.usage).toMatchObject({
      inputTokens: 380,
      outputTokens: 38,
      totalTokens: 418,
    });
    // The calling step's own node counts only its own model calls; the child run counts its own.
    expect(findNode(result.trace.root, 'step', 'report').usage).toMatchObject({
      inputTokens: 300,
      outputTokens: 30,
      totalTokens: 330,
    });
    const finishes = events.filter(
      (e): e is Extract<RunEvent, { type: 'run-finish' }> => e.type === 'run-finish',
    );
    expect(finishes.map((e) => [e.runId, e.usage.totalTokens])).toEqual([
      [`${handle.runId}.1`, 88],
      [handle.runId, 418],
    ]);
  });

  it("prefixes the workflow's step paths with the tool name and marks its run with the tool call", async () => {
    const { outer, inner } = reportModels();
    const handle = run(<Report outer={outer} inner={inner} />);
    const { events, done } = recordEvents(handle);
    await handle.result;
    await done;
    expect(
      events.filter((e) => e.type === 'step-start').map((e) => (e as { step: string }).step),
    ).toEqual(['report', 'research:findings']);
    expect(events.find((e) => e.type === 'run-start' && e.runId !== handle.runId)).toEqual({
      type: 'run-start',
      runId: `${handle.runId}.1`,
      parentToolCallId: 'call_report_1_1',
      workflow: 'research',
      // the child run's node hangs under the composite call's node
      nodeId: expect.any(String),
      parentId: events.find((e) => e.type === 'tool-call' && e.tool === 'research')!.nodeId,
      at: expect.any(Number),
    });
  });

  it("records research as composite in the calling agent's capabilities and in inspect()", async () => {
    const { outer, inner } = reportModels();
    const result = await run(<Report outer={outer} inner={inner} />).result;
    expect(findNode(result.trace.root, 'agent', 'agent').capabilities).toEqual([
      { name: 'research', source: '<Tool name="research">', composite: true },
    ]);
    expect(await inspect(<Report outer={outer} inner={inner} />)).toEqual({
      agents: [
        {
          path: 'agent',
          name: 'agent',
          tools: [
            {
              name: 'research',
              needsApproval: false,
              source: '<Tool name="research">',
              composite: true,
            },
          ],
        },
      ],
    });
  });

  describe('output', () => {
    const twoSteps =
      (output?: (result: { steps: Readonly<Record<string, unknown>> }) => unknown) =>
      (model: LanguageModel) => (
        <Agent model={model}>
          <Tool name="research" input={question} {...(output ? { output } : {})}>
            {({ question }) => (
              <Agent model={model}>
                <Step id="findings" prompt={`Research: ${question}`} />
                <Step id="sources" prompt="List your sources" />
              </Agent>
            )}
          </Tool>
          <Step id="report" prompt="Research Suspense" />
        </Agent>
      );
    const script = {
      report: [
        { toolCalls: [{ tool: 'research', input: { question: 'Suspense?' } }] },
        { text: 'Done.' },
      ],
      'research:findings': [{ text: 'It waits.' }],
      'research:sources': [{ text: 'react.dev' }],
    };

    it("is by default the only step's result (as text)", async () => {
      const { outer, inner } = reportModels();
      await run(<Report outer={outer} inner={inner} />).result;
      expect(toolResultsOf(callsAt(outer, 'report')[1]!.prompt)[0]!.output).toEqual({
        type: 'text',
        value: findings,
      });
    });

    it("is by default an object of every step's result when there are several (as JSON)", async () => {
      const model = recordingModel(script);
      const result = await run(twoSteps()(model)).result;
      const expected = { findings: 'It waits.', sources: 'react.dev' };
      expect(
        (findNode(result.trace.root, 'tool', 'research').output as CompositeToolResult).output,
      ).toEqual(expected);
      expect(toolResultsOf(callsAt(model, 'report')[1]!.prompt)[0]!.output).toEqual({
        type: 'json',
        value: expected,
      });
    });

    it('is what output={(result) => ...} picks', async () => {
      const model = recordingModel(script);
      const seen: unknown[] = [];
      const pick = (result: { steps: Readonly<Record<string, unknown>>; usage?: unknown }) => {
        seen.push(Object.keys(result).sort());
        return result.steps.sources;
      };
      await run(twoSteps(pick)(model)).result;
      expect(seen).toEqual([['steps', 'usage']]);
      expect(toolResultsOf(callsAt(model, 'report')[1]!.prompt)[0]!.output).toEqual({
        type: 'text',
        value: 'react.dev',
      });
    });

    it('goes back as JSON when output picks something other than a string', async () => {
      const model = recordingModel(script);
      await run(twoSteps((result) => ({ summary: result.steps.findings, count: 2 }))(model)).result;
      expect(toolResultsOf(callsAt(model, 'report')[1]!.prompt)[0]!.output).toEqual({
        type: 'json',
        value: { summary: 'It waits.', count: 2 },
      });
    });
  });

  it('in a <Namespace> is called by its namespaced name, which also starts its step paths', async () => {
    const model = recordingModel({
      report: [
        { toolCalls: [{ tool: 'lab_research', input: { question: 'Suspense?' } }] },
        { text: 'Done.' },
      ],
      'lab_research:findings': [{ text: 'It waits.' }],
    });
    const result = await run(
      <Agent model={model}>
        <Namespace name="lab">
          <Tool name="research" input={question}>
            {({ question }) => (
              <Agent model={model}>
                <Step id="findings" prompt={`Research: ${question}`} />
              </Agent>
            )}
          </Tool>
        </Namespace>
        <Step id="report" prompt="Research Suspense" />
      </Agent>,
    ).result;
    expect(toolNamesOf(callsAt(model, 'report')[0]!)).toEqual(['lab_research']);
    expect(findNode(result.trace.root, 'agent', 'agent').capabilities).toEqual([
      {
        name: 'lab_research',
        source: '<Tool name="research"> in <Namespace name="lab">',
        composite: true,
      },
    ]);
    model.scripted.assertAllTurnsUsed();
  });

  it("checks the workflow's tree before its first model call: a tree error costs no token inside", async () => {
    const outer = recordingModel({
      report: [
        { toolCalls: [{ tool: 'research', input: { question: 'Suspense?' } }] },
        { text: 'The research tool failed.' },
      ],
    });
    const inner = recordingModel({ 'research:findings': [{ text: 'never' }] });
    const result = await run(
      <Agent model={outer}>
        <Tool name="research" input={question}>
          {({ question }) => (
            <Agent model={inner}>
              <Step id="findings" prompt={`Research: ${question}`} />
              <Step id="findings" prompt="Again" />
            </Agent>
          )}
        </Tool>
        <Step id="report" prompt="Research Suspense" />
      </Agent>,
    ).result;
    expect(inner.doStreamCalls).toHaveLength(0);
    const seen = toolResultsOf(callsAt(outer, 'report')[1]!.prompt)[0]!.output;
    expect(seen).toEqual({
      type: 'error-text',
      value: expect.stringMatching(
        /^june: the tool "research" failed: two steps have the id "findings": <Step id="findings">/,
      ),
    });
    expect(result.output).toBe('The research tool failed.');
  });
});
