import { Output, tool } from 'ai';
import { Agent, Step, Tool, run, type JuneNode } from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { assistantTexts, streamModel, userTexts } from '../helpers/mock-stream-model.js';

const weather = tool({
  description: 'Weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, tempC: 4 }),
});

describe('steps and conversation', () => {
  test('steps run in document order and share their agent’s conversation', async () => {
    const model = streamModel([{ text: 'Oslo is cold.' }, { text: 'Bring a coat.' }]);
    const { steps } = await run(
      <Agent model={model}>
        <Step id="weather" prompt="How is Oslo?" />
        <Step id="advice" prompt="What should I wear?" />
      </Agent>,
    ).result;

    expect(steps).toEqual({ weather: 'Oslo is cold.', advice: 'Bring a coat.' });
    expect(Object.keys(steps)).toEqual(['weather', 'advice']);
    expect(model.doStreamCalls).toHaveLength(2);
    const [first, second] = model.doStreamCalls.map((call) => call.prompt);
    expect(userTexts(first!)).toEqual(['How is Oslo?']);
    // the second step sees the first step's user message and answer, then its own prompt
    expect(second!.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(userTexts(second!)).toEqual(['How is Oslo?', 'What should I wear?']);
    expect(assistantTexts(second!)).toEqual(['Oslo is cold.']);
  });

  test('a step’s tool calls and results stay in the conversation of later steps', async () => {
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'weather', input: { city: 'Oslo' } }] },
      { text: '4C.' },
      { text: 'Coat.' },
    ]);
    await run(
      <Agent model={model}>
        <Tool name="weather" value={weather} />
        <Step id="weather" prompt="How is Oslo?" />
        <Step id="advice" prompt="What should I wear?" />
      </Agent>,
    ).result;

    const third = model.doStreamCalls[2]!.prompt;
    expect(third.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    expect(third[2]).toMatchObject({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          output: { type: 'json', value: { city: 'Oslo', tempC: 4 } },
        },
      ],
    });
  });

  test('instructions become the system prompt of every step', async () => {
    const model = streamModel([{ text: 'a' }, { text: 'b' }]);
    await run(
      <Agent model={model} instructions="You are terse.">
        <Step id="one" prompt="1" />
        <Step id="two" prompt="2" />
      </Agent>,
    ).result;

    for (const call of model.doStreamCalls) {
      expect(call.prompt[0]).toEqual({ role: 'system', content: 'You are terse.' });
      expect(call.prompt.filter((message) => message.role === 'system')).toHaveLength(1);
    }
  });

  test('a nested agent sees none of its parent’s conversation and starts from its messages prop', async () => {
    const parentModel = streamModel([{ text: 'parent answer' }, { text: 'parent again' }]);
    const childModel = streamModel([{ text: 'child answer' }]);
    await run(
      <Agent model={parentModel} instructions="parent rules">
        <Step id="first" prompt="parent question" />
        <Agent
          model={childModel}
          messages={[
            { role: 'user', content: 'earlier' },
            { role: 'assistant', content: 'noted' },
          ]}
        >
          <Step id="child" prompt="child question" />
        </Agent>
        <Step id="second" prompt="parent follow-up" />
      </Agent>,
    ).result;

    const childPrompt = childModel.doStreamCalls[0]!.prompt;
    expect(childPrompt.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(userTexts(childPrompt)).toEqual(['earlier', 'child question']);
    expect(assistantTexts(childPrompt)).toEqual(['noted']);
    expect(JSON.stringify(childPrompt)).not.toContain('parent');

    // and the child's exchange does not leak back into the parent's conversation
    const parentSecond = parentModel.doStreamCalls[1]!.prompt;
    expect(userTexts(parentSecond)).toEqual(['parent question', 'parent follow-up']);
    expect(JSON.stringify(parentSecond)).not.toContain('child');
  });

  test('the messages prop is copied: a run never changes the array it was given', async () => {
    const messages = [{ role: 'user' as const, content: 'earlier' }];
    await run(
      <Agent model={streamModel([{ text: 'ok' }])} messages={messages}>
        <Step id="s" prompt="now" />
      </Agent>,
    ).result;
    expect(messages).toEqual([{ role: 'user', content: 'earlier' }]);
  });

  test('a prompt function reads the results of earlier steps when its step starts', async () => {
    const model = streamModel([{ text: 'Oslo' }, { text: '4C' }]);
    const seen: Array<Record<string, unknown>> = [];
    const { steps } = await run(
      <Agent model={model}>
        <Step id="city" prompt="Pick a city" />
        <Step
          id="weather"
          prompt={async ({ steps }) => {
            seen.push({ ...steps });
            return `Weather in ${steps.city}?`;
          }}
        />
      </Agent>,
    ).result;

    expect(seen).toEqual([{ city: 'Oslo' }]);
    expect(userTexts(model.doStreamCalls[1]!.prompt)).toEqual(['Pick a city', 'Weather in Oslo?']);
    expect(steps.weather).toBe('4C');
  });
});

describe('render-prop children', () => {
  test('the child function gets the step’s result and what it returns runs after the step, in the same agent', async () => {
    const model = streamModel([{ text: 'yes' }, { text: 'fixed' }]);
    const order: string[] = [];
    const { steps } = await run(
      <Agent model={model}>
        <Step id="triage" prompt="Is it a bug?">
          {(answer: string) => {
            order.push(`child saw ${answer}`);
            return answer === 'yes' ? (
              <Step id="fix" prompt="Fix it" />
            ) : (
              <Step id="close" prompt="Close it" />
            );
          }}
        </Step>
      </Agent>,
    ).result;

    expect(order).toEqual(['child saw yes']);
    expect(steps).toEqual({ triage: 'yes', fix: 'fixed' });
    // same agent: the branch's step continues the conversation
    expect(userTexts(model.doStreamCalls[1]!.prompt)).toEqual(['Is it a bug?', 'Fix it']);
  });

  test('an <Agent> rendered by the child function resolves its capabilities then', async () => {
    const outer = streamModel([{ text: 'Oslo' }]);
    const inner = streamModel([
      { toolCalls: [{ id: 'c1', name: 'weather', input: { city: 'Oslo' } }] },
      { text: 'It is 4C.' },
    ]);
    const handle = run(
      <Agent name="planner" model={outer}>
        <Step id="city" prompt="Pick a city">
          {(city: string) => (
            <Agent name="reporter" model={inner}>
              <Tool name="weather" value={weather} />
              <Step id="report" prompt={`Weather in ${city}?`} />
            </Agent>
          )}
        </Step>
      </Agent>,
    );
    const { steps, trace } = await handle.result;

    expect(steps).toEqual({ city: 'Oslo', report: 'It is 4C.' });
    expect(inner.doStreamCalls[0]!.tools?.map((t) => t.name)).toEqual(['weather']);
    expect(outer.doStreamCalls[0]!.tools ?? []).toEqual([]);
    const reporter = trace.root.children[0]!.children.find((node) => node.name === 'reporter')!;
    expect(reporter).toMatchObject({
      kind: 'agent',
      status: 'succeeded',
      capabilities: [{ name: 'weather', source: '<Tool name="weather">' }],
    });
    const events = [];
    for await (const event of handle.events) events.push(event);
    const types = events.map((event) =>
      event.type === 'agent-start' || event.type === 'step-finish'
        ? `${event.type}:${'agent' in event ? event.agent : event.step}`
        : event.type,
    );
    // the nested agent starts only after the step it branches from has finished
    expect(types.indexOf('agent-start:reporter')).toBeGreaterThan(
      types.indexOf('step-finish:city'),
    );
  });

  test('an async child function and a child returning nothing both work', async () => {
    const model = streamModel([{ text: 'no' }, { text: 'done' }]);
    const { steps } = await run(
      <Agent model={model}>
        <Step id="a" prompt="?">
          {async (answer: string) => answer === 'yes' && <Step id="never" prompt="x" />}
        </Step>
        <Step id="b" prompt="next">
          {async () => null}
        </Step>
      </Agent>,
    ).result;
    expect(steps).toEqual({ a: 'no', b: 'done' });
  });
});

describe('user components', () => {
  test('sync and async components render where they stand, in document order, once per run', async () => {
    const calls = { Intro: 0, Research: 0, Outro: 0 };
    function Intro() {
      calls.Intro++;
      return <Step id="intro" prompt="Say hi" />;
    }
    async function Research({ topic }: { topic: string }) {
      calls.Research++;
      await Promise.resolve();
      return (
        <>
          <Step id="search" prompt={`Search ${topic}`} />
          <Step id="summary" prompt="Summarize" />
        </>
      );
    }
    const Outro = async (): Promise<JuneNode> => {
      calls.Outro++;
      return [<Step id="bye" prompt="Say bye" />];
    };
    const model = streamModel([
      { text: 'hi' },
      { text: 'found' },
      { text: 'short' },
      { text: 'bye' },
    ]);
    const { steps } = await run(
      <Agent model={model}>
        <Intro />
        <Research topic="fjords" />
        <Outro />
      </Agent>,
    ).result;

    expect(Object.keys(steps)).toEqual(['intro', 'search', 'summary', 'bye']);
    expect(steps).toEqual({ intro: 'hi', search: 'found', summary: 'short', bye: 'bye' });
    expect(userTexts(model.doStreamCalls[1]!.prompt)).toEqual(['Say hi', 'Search fjords']);
    // run() checks the tree before the first model call, yet each component renders once
    expect(calls).toEqual({ Intro: 1, Research: 1, Outro: 1 });
  });

  test('one component element used twice renders twice: once per place it stands', async () => {
    let renders = 0;
    let id = 0;
    function Ask() {
      renders++;
      return <Step id={`ask${++id}`} prompt="?" />;
    }
    const ask = <Ask />;
    const { steps } = await run(
      <Agent model={streamModel([{ text: 'a' }, { text: 'b' }])}>
        {ask}
        {ask}
      </Agent>,
    ).result;
    expect(Object.keys(steps)).toHaveLength(2);
    expect(renders).toBe(2);
  });

  test('a component that renders a whole agent, and a root component with props', async () => {
    let renders = 0;
    function Workflow({ city }: { city: string }) {
      renders++;
      return (
        <Agent model={streamModel([{ text: `${city} is cold` }])}>
          <Step id="weather" prompt={`Weather in ${city}?`} />
        </Agent>
      );
    }
    const { output } = await run(Workflow, { props: { city: 'Oslo' } }).result;
    expect(output).toBe('Oslo is cold');
    expect(renders).toBe(1);
  });

  test('a component rendered by a step’s child function renders once, after the step', async () => {
    let renders = 0;
    function FollowUp({ about }: { about: string }) {
      renders++;
      return <Step id="follow" prompt={`More about ${about}`} />;
    }
    const model = streamModel([{ text: 'fjords' }, { text: 'deep' }]);
    const { steps } = await run(
      <Agent model={model}>
        <Step id="topic" prompt="Pick a topic">
          {(topic: string) => <FollowUp about={topic} />}
        </Step>
      </Agent>,
    ).result;
    expect(steps.follow).toBe('deep');
    expect(renders).toBe(1);
  });

  test('a prompt function reads the results so far and cannot change them', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const model = streamModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    const { steps } = await run(
      <Agent model={model}>
        <Step id="a" prompt="First" />
        <Step
          id="b"
          prompt={({ steps }) => {
            seen.push({ ...steps });
            return `After ${steps.a}`;
          }}
        />
        <Step
          id="c"
          prompt={({ steps }) => {
            seen.push({ ...steps });
            expect(() => Object.assign(steps, { a: 'changed' })).toThrow(TypeError);
            return `After ${steps.b}`;
          }}
        />
      </Agent>,
    ).result;
    expect(seen).toEqual([{ a: 'one' }, { a: 'one', b: 'two' }]);
    expect(steps).toEqual({ a: 'one', b: 'two', c: 'three' });
  });
});

describe('results', () => {
  test('output is the only step’s result', async () => {
    const { output, steps } = await run(
      <Agent model={streamModel([{ text: 'only' }])}>
        <Step id="one" prompt="?" />
      </Agent>,
    ).result;
    expect(output).toBe('only');
    expect(steps).toEqual({ one: 'only' });
  });

  test('output is an object of every step’s result when there are several', async () => {
    const { output } = await run(
      <Agent model={streamModel([{ text: 'A' }, { text: 'B' }])}>
        <Step id="a" prompt="?" />
        <Step id="b" prompt="?" />
      </Agent>,
    ).result;
    expect(output).toEqual({ a: 'A', b: 'B' });
  });

  test('run(el, { output }) picks the output from the steps and usage', async () => {
    const { output } = await run(
      <Agent
        model={streamModel([
          { text: 'A', usage: [3, 4] },
          { text: 'B', usage: [5, 6] },
        ])}
      >
        <Step id="a" prompt="?" />
        <Step id="b" prompt="?" />
      </Agent>,
      { output: async ({ steps, usage }) => `${steps.b}/${usage.totalTokens}` },
    ).result;
    expect(output).toBe('B/18');
  });

  test('usage sums every model call of every step, in tokens', async () => {
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'weather', input: { city: 'Oslo' } }], usage: [100, 7] },
      { text: '4C', usage: [130, 3] },
      { text: 'coat', usage: [150, 2] },
    ]);
    const { usage, trace } = await run(
      <Agent model={model}>
        <Tool name="weather" value={weather} />
        <Step id="weather" prompt="?" />
        <Step id="advice" prompt="?" />
      </Agent>,
    ).result;

    expect(usage).toMatchObject({
      inputTokens: 380,
      outputTokens: 12,
      totalTokens: 392,
      inputTokenDetails: { noCacheTokens: 380 },
      outputTokenDetails: { textTokens: 12 },
    });
    const stepNodes = trace.root.children[0]!.children;
    expect(stepNodes.map((node) => [node.name, node.usage?.totalTokens])).toEqual([
      ['weather', 240],
      ['advice', 152],
    ]);
    expect(trace.root.usage?.totalTokens).toBe(392);
    // one model node per model call, each with its own usage
    expect(
      stepNodes[0]!.children
        .filter((node) => node.kind === 'model')
        .map((node) => node.usage?.inputTokens),
    ).toEqual([100, 130]);
  });

  test('<Step output={Output.object({ schema })}> gives the parsed object', async () => {
    const model = streamModel([{ text: ['{"city":"Os', 'lo","tempC":4}'] }]);
    const schema = z.object({ city: z.string(), tempC: z.number() });
    const { steps, output } = await run(
      <Agent model={model}>
        <Step id="weather" prompt="Weather in Oslo as JSON" output={Output.object({ schema })} />
      </Agent>,
    ).result;
    expect(steps.weather).toEqual({ city: 'Oslo', tempC: 4 });
    expect(output).toEqual({ city: 'Oslo', tempC: 4 });
    expect(model.doStreamCalls[0]!.responseFormat).toMatchObject({ type: 'json' });
  });

  test('an agent’s output prop is the default for its steps, and a step’s own output wins', async () => {
    const model = streamModel([{ text: '{"n":1}' }, { text: '{"word":"two"}' }]);
    const { steps } = await run(
      <Agent model={model} output={Output.object({ schema: z.object({ n: z.number() }) })}>
        <Step id="a" prompt="n" />
        <Step
          id="b"
          prompt="word"
          output={Output.object({ schema: z.object({ word: z.string() }) })}
        />
      </Agent>,
    ).result;
    expect(steps).toEqual({ a: { n: 1 }, b: { word: 'two' } });
  });
});
