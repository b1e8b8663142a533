import { Output, tool } from 'ai';
import {
  Agent,
  defineAgent,
  defineCapabilities,
  inspect,
  JuneError,
  Namespace,
  RequireApproval,
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
  nextEvent,
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

describe('defineAgent', () => {
  function article() {
    const writerModel = recordingModel(
      {
        write: [
          {
            toolCalls: [{ tool: 'researcher', input: { question: 'How does Suspense work?' } }],
            usage: { inputTokens: 40, outputTokens: 4 },
          },
          { text: 'Suspense, explained.', usage: { inputTokens: 60, outputTokens: 6 } },
        ],
      },
      'writer-model',
    );
    const researcherModel = recordingModel(
      {
        'researcher:answer': [
          {
            toolCalls: [{ tool: 'search', input: { query: 'suspense' } }],
            usage: { inputTokens: 7, outputTokens: 1 },
          },
          {
            text: 'It shows a fallback while waiting.',
            usage: { inputTokens: 9, outputTokens: 2 },
          },
        ],
      },
      'researcher-model',
    );
    const Researcher = defineAgent({
      name: 'researcher',
      description: 'Researches a question and reports what it found',
      input: z.object({ question: z.string() }),
      model: researcherModel,
      instructions: 'You research carefully and cite what you find.',
      temperature: 0.2,
      prompt: ({ question }) => `Research: ${question}`,
      capabilities: () => <Tool name="search" value={search} />,
    });
    const Article = () => (
      <Agent model={writerModel} instructions="You write short articles.">
        <Researcher />
        <Step id="write" prompt="Write a short article on how Suspense works" />
      </Agent>
    );
    return { writerModel, researcherModel, Article };
  }

  it('declares one tool that runs the agent with its own model, instructions, settings and tools', async () => {
    const { writerModel, researcherModel, Article } = article();
    const result = await run(<Article />).result;

    expect(result.output).toBe('Suspense, explained.');
    for (const call of callsAt(writerModel, 'write'))
      expect(toolNamesOf(call)).toEqual(['researcher']);
    expect(callsAt(writerModel, 'write')[0]!.tools![0]).toMatchObject({
      name: 'researcher',
      description: 'Researches a question and reports what it found',
    });

    const [first, second] = callsAt(researcherModel, 'researcher:answer');
    expect(toolNamesOf(first!)).toEqual(['search']);
    expect(first!.temperature).toBe(0.2);
    // The prompt is built from the input alone: nothing of the writer's conversation crosses.
    expect(first!.prompt).toEqual([
      { role: 'system', content: 'You research carefully and cite what you find.' },
      { role: 'user', content: [{ type: 'text', text: 'Research: How does Suspense work?' }] },
    ]);
    expect(JSON.stringify(second!.prompt)).not.toContain('short article');
    // The writer's model gets the answer as text.
    expect(toolResultsOf(callsAt(writerModel, 'write')[1]!.prompt)[0]!.output).toEqual({
      type: 'text',
      value: 'It shows a fallback while waiting.',
    });
    writerModel.scripted.assertAllTurnsUsed();
    researcherModel.scripted.assertAllTurnsUsed();
  });

  it("is written <researcher> and marked composite in the caller's provenance", async () => {
    const { Article } = article();
    expect(await inspect(<Article />)).toEqual({
      agents: [
        {
          path: 'agent',
          name: 'agent',
          tools: [
            { name: 'researcher', needsApproval: false, source: '<researcher>', composite: true },
          ],
        },
      ],
    });
  });

  it("keeps the agent's trace (agent researcher, step answer) and usage in the tool call's output", async () => {
    const { Article } = article();
    const result = await run(<Article />).result;
    const output = findNode(result.trace.root, 'tool', 'researcher').output as CompositeToolResult;
    expect(output.output).toBe('It shows a fallback while waiting.');
    expect(output.usage).toMatchObject({ inputTokens: 16, outputTokens: 3, totalTokens: 19 });
    const agent = findNode(output.trace.root, 'agent', 'researcher');
    expect(agent.model).toBe('mock-provider:researcher-model');
    expect(agent.capabilities).toEqual([{ name: 'search', source: '<Tool name="search">' }]);
    expect(findNode(agent, 'step', 'answer')).toMatchObject({
      step: 'researcher:answer',
      prompt: 'Research: How does Suspense work?',
    });
    expect(result.usage).toMatchObject({ inputTokens: 116, outputTokens: 13, totalTokens: 129 });
  });

  it('with output: Output.object(...) hands the caller the parsed object as JSON', async () => {
    const caller = recordingModel({
      write: [
        { toolCalls: [{ tool: 'researcher', input: { question: 'Suspense?' } }] },
        { text: 'Done.' },
      ],
      'researcher:answer': [{ object: { answer: 'It waits.', sources: ['react.dev'] } }],
    });
    const Researcher = defineAgent({
      name: 'researcher',
      input: z.object({ question: z.string() }),
      model: caller,
      prompt: ({ question }) => `Research: ${question}`,
      output: Output.object({
        schema: z.object({ answer: z.string(), sources: z.array(z.string()) }),
      }),
    });
    const result = await run(
      <Agent model={caller}>
        <Researcher />
        <Step id="write" prompt="Write" />
      </Agent>,
    ).result;
    const expected = { answer: 'It waits.', sources: ['react.dev'] };
    expect(toolResultsOf(callsAt(caller, 'write')[1]!.prompt)[0]!.output).toEqual({
      type: 'json',
      value: expected,
    });
    expect(
      (findNode(result.trace.root, 'tool', 'researcher').output as CompositeToolResult).output,
    ).toEqual(expected);
  });

  it('composes three levels deep: each level sees one tool, step paths join every level, usage sums all', async () => {
    const model = recordingModel({
      publish: [
        {
          toolCalls: [{ tool: 'writer', input: { topic: 'Suspense' } }],
          usage: { inputTokens: 1000, outputTokens: 100 },
        },
        { text: 'Published.', usage: { inputTokens: 1000, outputTokens: 100 } },
      ],
      'writer:answer': [
        {
          toolCalls: [{ tool: 'researcher', input: { question: 'What is Suspense?' } }],
          usage: { inputTokens: 200, outputTokens: 20 },
        },
        { text: 'An article on Suspense.', usage: { inputTokens: 200, outputTokens: 20 } },
      ],
      'writer:researcher:answer': [
        {
          toolCalls: [{ tool: 'searcher', input: { query: 'suspense' } }],
          usage: { inputTokens: 30, outputTokens: 3 },
        },
        {
          object: { answer: 'A fallback while loading.' },
          usage: { inputTokens: 30, outputTokens: 3 },
        },
      ],
      'writer:researcher:searcher:answer': [
        {
          toolCalls: [{ tool: 'search', input: { query: 'suspense' } }],
          usage: { inputTokens: 4, outputTokens: 1 },
        },
        { text: 'Found: react.dev/suspense', usage: { inputTokens: 4, outputTokens: 1 } },
      ],
    });
    const Searcher = defineAgent({
      name: 'searcher',
      input: z.object({ query: z.string() }),
      model,
      instructions: 'You search.',
      prompt: ({ query }) => `Search for ${query}`,
      capabilities: () => <Tool name="search" value={search} />,
    });
    const Researcher = defineAgent({
      name: 'researcher',
      input: z.object({ question: z.string() }),
      model,
      instructions: 'You research.',
      prompt: ({ question }) => `Research: ${question}`,
      capabilities: () => <Searcher />,
      output: Output.object({ schema: z.object({ answer: z.string() }) }),
    });
    const Writer = defineAgent({
      name: 'writer',
      input: z.object({ topic: z.string() }),
      model,
      instructions: 'You write.',
      prompt: ({ topic }) => `Write about ${topic}`,
      capabilities: () => <Researcher />,
    });
    const handle = run(
      <Agent model={model}>
        <Writer />
        <Step id="publish" prompt="Publish an article on Suspense" />
      </Agent>,
    );
    const { events, done } = recordEvents(handle);
    const result = await handle.result;
    await done;

    expect(result.output).toBe('Published.');
    const tools = (step: string) => callsAt(model, step).map(toolNamesOf);
    expect(tools('publish')).toEqual([['writer'], ['writer']]);
    expect(tools('writer:answer')).toEqual([['researcher'], ['researcher']]);
    expect(tools('writer:researcher:answer')).toEqual([['searcher'], ['searcher']]);
    expect(tools('writer:researcher:searcher:answer')).toEqual([['search'], ['search']]);
    expect(toolResultsOf(callsAt(model, 'writer:answer')[1]!.prompt)[0]!.output).toEqual({
      type: 'json',
      value: { answer: 'A fallback while loading.' },
    });
    expect(toolResultsOf(callsAt(model, 'writer:researcher:answer')[1]!.prompt)[0]!.output).toEqual(
      { type: 'text', value: 'Found: react.dev/suspense' },
    );
    expect(
      events.filter((e) => e.type === 'step-start').map((e) => (e as { step: string }).step),
    ).toEqual([
      'publish',
      'writer:answer',
      'writer:researcher:answer',
      'writer:researcher:searcher:answer',
    ]);

    // The trace nests: each tool call's output holds the next level's run.
    const writer = findNode(result.trace.root, 'tool', 'writer').output as CompositeToolResult;
    const researcher = findNode(writer.trace.root, 'tool', 'researcher')
      .output as CompositeToolResult;
    const searcher = findNode(researcher.trace.root, 'tool', 'searcher')
      .output as CompositeToolResult;
    expect(findNode(searcher.trace.root, 'tool', 'search').output).toBe('results for suspense');
    expect([writer, researcher, searcher].map((level) => level.trace.runId)).toEqual([
      `${handle.runId}.1`,
      `${handle.runId}.2`,
      `${handle.runId}.3`,
    ]);
    expect(findNode(writer.trace.root, 'agent', 'writer').capabilities).toEqual([
      { name: 'researcher', source: '<researcher>', composite: true },
    ]);
    expect(findNode(researcher.trace.root, 'agent', 'researcher').capabilities).toEqual([
      { name: 'searcher', source: '<searcher>', composite: true },
    ]);

    // 2000 + 400 + 60 + 8 in; 200 + 40 + 6 + 2 out.
    expect(searcher.usage).toMatchObject({ inputTokens: 8, outputTokens: 2, totalTokens: 10 });
    expect(researcher.usage).toMatchObject({ inputTokens: 68, outputTokens: 8, totalTokens: 76 });
    expect(writer.usage).toMatchObject({ inputTokens: 468, outputTokens: 48, totalTokens: 516 });
    expect(result.usage).toMatchObject({ inputTokens: 2468, outputTokens: 248, totalTokens: 2716 });
    const finishes = events.filter(
      (e): e is Extract<RunEvent, { type: 'run-finish' }> => e.type === 'run-finish',
    );
    expect(finishes.map((e) => e.usage.totalTokens)).toEqual([10, 76, 516, 2716]);
    model.scripted.assertAllTurnsUsed();
  });

  it('takes bundles and wrappers in capabilities, applied inside the agent only', async () => {
    const model = recordingModel({
      write: [
        { toolCalls: [{ tool: 'researcher', input: { question: 'Suspense?' } }] },
        { text: 'Written.' },
      ],
      'researcher:answer': [
        { toolCalls: [{ tool: 'web_search', input: { query: 'suspense' } }] },
        { text: 'Found.' },
      ],
    });
    const lookup = tool({
      inputSchema: z.object({ term: z.string() }),
      execute: async ({ term }) => `${term}: a React feature`,
    });
    const Reference = defineCapabilities(() => <Tool name="lookup" value={lookup} />, {
      name: 'Reference',
    });
    const Researcher = defineAgent({
      name: 'researcher',
      input: z.object({ question: z.string() }),
      model,
      prompt: ({ question }) => `Research: ${question}`,
      capabilities: () => (
        <>
          <Namespace name="web">
            <RequireApproval>
              <Tool name="search" value={search} />
            </RequireApproval>
          </Namespace>
          <Reference />
        </>
      ),
    });
    const handle = run(
      <Agent model={model}>
        <Researcher />
        <Step id="write" prompt="Write" />
      </Agent>,
    );
    const { request } = await nextEvent(
      handle,
      (e): e is Extract<RunEvent, { type: 'approval-request' }> => e.type === 'approval-request',
    );
    expect(request).toMatchObject({ tool: 'web_search', step: 'researcher:answer' });
    handle.approve(request.id);
    const result = await handle.result;
    expect(toolNamesOf(callsAt(model, 'write')[0]!)).toEqual(['researcher']);
    expect(toolNamesOf(callsAt(model, 'researcher:answer')[0]!)).toEqual(['web_search', 'lookup']);
    const child = (findNode(result.trace.root, 'tool', 'researcher').output as CompositeToolResult)
      .trace;
    expect(findNode(child.root, 'agent', 'researcher').capabilities!.map((c) => c.source)).toEqual([
      expect.stringMatching(/^<Tool name="search">.* in <Namespace name="web">/),
      '<Tool name="lookup"> in <Reference>',
    ]);
  });

  it('collides with another capability of the same name, naming <researcher>', async () => {
    const { researcherModel } = article();
    const Researcher = defineAgent({
      name: 'researcher',
      input: z.object({}),
      model: researcherModel,
      prompt: () => 'Research',
    });
    const error = await run(
      <Agent model={researcherModel}>
        <Researcher />
        <Tool name="researcher" value={search} />
        <Step id="write" prompt="Write" />
      </Agent>,
    ).result.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'capability-collision' });
    expect((error as Error).message).toMatch(
      /^june: two capabilities of <Agent>.* expose the tool name "researcher": <researcher>.* and <Tool name="researcher">/,
    );
    expect(researcherModel.doStreamCalls).toHaveLength(0);
  });

  describe('checks its options when it is defined', () => {
    const { researcherModel: model } = article();
    const input = z.object({ question: z.string() });
    const prompt = () => 'Research';
    const attempt = (options: unknown) => {
      try {
        defineAgent(options as Parameters<typeof defineAgent>[0]);
      } catch (error) {
        return error as JuneError;
      }
      throw new Error('defineAgent accepted the options');
    };

    it('a name that is not a tool name', () => {
      const error = attempt({ name: 'the researcher', input, model, prompt });
      expect(JuneError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'tool-name-invalid', blame: 'workflow' });
      expect(error.message).toBe(
        'june: defineAgent() got the name "the researcher"; the name is the tool name the calling model sees: letters, digits, "_" and "-", 1 to 64 characters (e.g. "researcher").',
      );
    });

    it('no model, no input, a prompt or capabilities that is not a function', () => {
      expect(attempt({ name: 'researcher', input, prompt })).toMatchObject({
        code: 'agent-model-missing',
        message: expect.stringContaining('defineAgent({ name: "researcher" }) has no model'),
      });
      expect(attempt({ name: 'researcher', model, prompt })).toMatchObject({
        code: 'define-agent-invalid',
        message: expect.stringContaining('has no input schema'),
      });
      expect(attempt({ name: 'researcher', model, input, prompt: 'Research' })).toMatchObject({
        code: 'define-agent-invalid',
        message: expect.stringContaining('needs prompt: (input) => "..."'),
      });
      expect(
        attempt({
          name: 'researcher',
          model,
          input,
          prompt,
          capabilities: <Tool name="search" value={search} />,
        }),
      ).toMatchObject({
        code: 'define-agent-invalid',
        message: expect.stringContaining('has capabilities that are not a function'),
      });
    });
  });

  it('fails the call, not the run, when prompt returns something other than a string', async () => {
    const model = recordingModel({
      write: [
        { toolCalls: [{ tool: 'researcher', input: { question: 'Suspense?' } }] },
        { text: 'It failed.' },
      ],
    });
    const Researcher = defineAgent({
      name: 'researcher',
      input: z.object({ question: z.string() }),
      model,
      prompt: (() => 42) as unknown as () => string,
    });
    const result = await run(
      <Agent model={model}>
        <Researcher />
        <Step id="write" prompt="Write" />
      </Agent>,
    ).result;
    expect(result.output).toBe('It failed.');
    expect(toolResultsOf(callsAt(model, 'write')[1]!.prompt)[0]!.output).toEqual({
      type: 'error-text',
      value:
        'june: the tool "researcher" failed: the prompt function of defineAgent({ name: "researcher" }) returned number; return the step\'s prompt as a string.',
    });
  });
});
