import { tool } from 'ai';
import {
  Agent,
  Inherit,
  inspect,
  Namespace,
  RequireApproval,
  run,
  Step,
  Tool,
  type RunEvent,
} from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { hangingModel, streamModel, toolResults } from '../helpers/mock-stream-model.js';
import { collect, rejectionOf, weatherSource } from './support.js';

const toolNames = (model: ReturnType<typeof streamModel>, call: number) =>
  (model.doStreamCalls[call]!.tools ?? []).map((t) => t.name);

describe('a tool source', () => {
  test('resolves before the agent’s steps start: the first model call already has its tools', async () => {
    const { Source, probe } = weatherSource();
    const model = streamModel([
      () => {
        expect(probe.connects).toBe(1);
        return { toolCalls: [{ id: 'c1', name: 'forecast', input: { city: 'Oslo' } }] };
      },
      { text: 'Sunny.' },
    ]);
    const handle = run(
      <Agent model={model}>
        <Source />
        <Step id="plan" prompt="Plan a picnic in Oslo" />
      </Agent>,
    );
    const [events, result] = await Promise.all([collect(handle.events), handle.result]);

    expect(toolNames(model, 0)).toEqual(['forecast']);
    expect(probe.calls).toEqual(['Oslo']);
    expect(toolResults(model.doStreamCalls[1]!.prompt)[0]).toMatchObject({
      toolName: 'forecast',
      output: { type: 'text', value: 'Sunny in Oslo' },
    });
    expect(result.steps.plan).toBe('Sunny.');
    expect(events.find((event) => event.type === 'agent-start')).toMatchObject({
      tools: ['forecast'],
      capabilities: [{ name: 'forecast', source: '<Weather>' }],
    });
    expect(result.trace.root.children[0]!.capabilities).toEqual([
      { name: 'forecast', source: '<Weather>' },
    ]);
  });

  test('several agents of one run that declare it share one connection, closed once at the end', async () => {
    const { Source, probe } = weatherSource();
    const model = streamModel([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    const result = await run(
      <>
        <Agent model={model} name="first">
          <Source />
          <Step id="one" prompt="one" />
          <Agent model={model} name="nested">
            <Source />
            <Step id="two" prompt="two" />
          </Agent>
        </Agent>
        <Agent model={model} name="second">
          <Namespace name="w">
            <Source />
          </Namespace>
          <Step id="three" prompt="three" />
        </Agent>
      </>,
    ).result;

    expect(probe.connects).toBe(1);
    expect(probe.closes).toBe(1);
    expect([0, 1, 2].map((call) => toolNames(model, call))).toEqual([
      ['forecast'],
      ['forecast'],
      ['w_forecast'],
    ]);
    expect(result.output).toEqual({ one: 'a', two: 'b', three: 'c' });
  });

  test('agents in composite tool calls share the run’s connection too', async () => {
    const { Source, probe } = weatherSource();
    const outer = streamModel([
      {
        toolCalls: [
          { id: 'c1', name: 'research', input: { city: 'Oslo' } },
          { id: 'c2', name: 'research', input: { city: 'Rome' } },
        ],
      },
      { text: 'Both researched.' },
    ]);
    const inner = streamModel([{ text: 'inner 1' }, { text: 'inner 2' }]);
    const result = await run(
      <Agent model={outer}>
        <Tool name="research" input={z.object({ city: z.string() })}>
          {({ city }: { city: string }) => (
            <Agent model={inner}>
              <Source />
              <Step id="look" prompt={`Weather in ${city}?`} />
            </Agent>
          )}
        </Tool>
        <Step id="plan" prompt="Research Oslo and Rome" />
      </Agent>,
    ).result;

    expect(result.steps.plan).toBe('Both researched.');
    expect(inner.doStreamCalls.map((call) => (call.tools ?? []).map((t) => t.name))).toEqual([
      ['forecast'],
      ['forecast'],
    ]);
    expect([probe.connects, probe.closes]).toEqual([1, 1]);
  });

  test('every run connects for itself, even two at once', async () => {
    const tools = (probe: { connects: number }) => {
      const connection = probe.connects;
      return {
        forecast: tool({
          inputSchema: z.object({}),
          execute: async () => `from connection ${connection}`,
        }),
      };
    };
    const { Source, probe } = weatherSource({ tools });
    const workflow = (step: string) => {
      const model = streamModel([
        { toolCalls: [{ id: 'c1', name: 'forecast', input: {} }] },
        { text: 'ok' },
      ]);
      return {
        model,
        element: (
          <Agent model={model}>
            <Source />
            <Step id={step} prompt="p" />
          </Agent>
        ),
      };
    };
    const first = workflow('first');
    const second = workflow('second');
    await Promise.all([run(first.element).result, run(second.element).result]);

    expect([probe.connects, probe.closes]).toEqual([2, 2]);
    const seen = [first, second].map(
      ({ model }) => toolResults(model.doStreamCalls[1]!.prompt)[0]!.output,
    );
    expect(seen).toEqual(
      expect.arrayContaining([
        { type: 'text', value: 'from connection 1' },
        { type: 'text', value: 'from connection 2' },
      ]),
    );
    expect(seen[0]).not.toEqual(seen[1]);
  });
});

describe('tools from a source obey the scope rules', () => {
  test('a <Tool> of the same name collides, and the error names the source', async () => {
    const { Source, probe } = weatherSource();
    const model = streamModel([{ text: 'never' }]);
    const forecast = tool({ inputSchema: z.object({}), execute: async () => 'mine' });
    const error = await rejectionOf(
      run(
        <Agent model={model}>
          <Namespace name="w">
            <Source />
          </Namespace>
          <Tool name="w_forecast" value={forecast} />
          <Step id="s" prompt="p" />
        </Agent>,
      ).result,
    );

    expect(error.code).toBe('capability-collision');
    expect(error.message).toMatch(/^june: /);
    expect(error.message).toContain('"w_forecast"');
    expect(error.message).toContain('<Weather> in <Namespace name="w">');
    expect(error.message).toContain('<Tool name="w_forecast">');
    expect(model.doStreamCalls).toHaveLength(0);
    expect(probe.closes).toBe(1);
  });

  test('<Namespace> prefixes them and <RequireApproval> makes them wait for an answer', async () => {
    const { Source, probe } = weatherSource();
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'weather_forecast', input: { city: 'Bergen' } }] },
      { text: 'Done.' },
    ]);
    const handle = run(
      <Agent model={model}>
        <RequireApproval>
          <Namespace name="weather">
            <Source />
          </Namespace>
        </RequireApproval>
        <Step id="plan" prompt="Bergen?" />
      </Agent>,
    );
    const seen: RunEvent[] = [];
    for await (const event of handle.events) {
      seen.push(event);
      if (event.type === 'approval-request') {
        expect(probe.calls).toEqual([]);
        handle.approve(event.request.id);
      }
    }
    const result = await handle.result;

    expect(toolNames(model, 0)).toEqual(['weather_forecast']);
    expect(seen.find((event) => event.type === 'approval-request')).toMatchObject({
      request: { tool: 'weather_forecast', step: 'plan' },
    });
    expect(probe.calls).toEqual(['Bergen']);
    expect(result.trace.root.children[0]!.capabilities).toEqual([
      {
        name: 'weather_forecast',
        source: '<Weather> in <RequireApproval> in <Namespace name="weather">',
      },
    ]);
  });

  test('<Inherit> grants them to a nested agent (which does not connect again)', async () => {
    const { Source, probe } = weatherSource();
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'w_forecast', input: { city: 'Rome' } }] },
      { text: 'Warm.' },
    ]);
    const result = await run(
      <Agent model={model} name="lead">
        <Namespace name="w">
          <Source />
        </Namespace>
        <Agent model={model} name="planner">
          <Inherit capabilities={['w_forecast']} />
          <Step id="plan" prompt="Rome?" />
        </Agent>
      </Agent>,
    ).result;

    expect(probe.connects).toBe(1);
    expect(probe.calls).toEqual(['Rome']);
    expect(toolNames(model, 0)).toEqual(['w_forecast']);
    const planner = result.trace.root.children[0]!.children[0]!;
    expect(planner.capabilities).toEqual([
      {
        name: 'w_forecast',
        source: '<Inherit capabilities={["w_forecast"]}>',
        granted: '<Weather> in <Namespace name="w"> in the enclosing <Agent>',
      },
    ]);
  });

  test('an <Inherit> of a name the source does not have fails when the nested agent resolves', async () => {
    const { Source } = weatherSource();
    const error = await rejectionOf(
      run(
        <Agent model={streamModel([])}>
          <Source />
          <Agent model={streamModel([])}>
            <Inherit capabilities={['radar']} />
            <Step id="s" prompt="p" />
          </Agent>
        </Agent>,
      ).result,
    );
    expect(error.code).toBe('inherit-unknown-name');
    expect(error.message).toContain('it has "forecast"');
  });
});

describe('waiting, failing, aborting, closing', () => {
  test('aborting the run while connect waits settles it as aborted at once; connect saw the abort', async () => {
    const { Source, probe } = weatherSource({ hang: true });
    const model = streamModel([{ text: 'never' }]);
    const handle = run(
      <Agent model={model}>
        <Source />
        <Step id="s" prompt="p" />
      </Agent>,
    );
    await probe.started();
    handle.abort('user stopped');
    const error = await rejectionOf(handle.result);

    expect(error.code).toBe('run-aborted');
    expect(probe.signals[0]!.aborted).toBe(true);
    expect(model.doStreamCalls).toHaveLength(0);
    expect(handle.trace().status).toBe('aborted');
    expect(handle.trace().root.children[0]).toMatchObject({ kind: 'agent', status: 'aborted' });
  });

  test('a connect that fails fails the run with a june: message naming the capability; nothing runs', async () => {
    const { Source, probe } = weatherSource({ failures: 1, failWith: 'ECONNREFUSED 127.0.0.1:9' });
    const model = streamModel([{ text: 'never' }]);
    const handle = run(
      <Agent model={model}>
        <Namespace name="w">
          <Source />
        </Namespace>
        <Step id="s" prompt="p" />
      </Agent>,
    );
    const [events, error] = await Promise.all([collect(handle.events), rejectionOf(handle.result)]);

    expect(error.code).toBe('capability-connect-failed');
    expect(error.blame).toBe('system');
    expect(error.message).toBe(
      'june: <Weather> in <Namespace name="w"> could not be resolved: ECONNREFUSED 127.0.0.1:9. Check the service it connects to, or wrap the agent in <Catch retries={n}> to try again.',
    );
    expect((error.cause as Error).message).toBe('ECONNREFUSED 127.0.0.1:9');
    expect(model.doStreamCalls).toHaveLength(0);
    expect(probe.closes).toBe(0);
    expect(events.at(-1)).toMatchObject({
      type: 'run-finish',
      status: 'failed',
      error: { code: 'capability-connect-failed' },
    });
    expect(events.some((event) => event.type === 'agent-start')).toBe(false);
  });

  test('close is called once when the run ends after success, after a failure and after an abort', async () => {
    // success
    const ok = weatherSource();
    await run(
      <Agent model={streamModel([{ text: 'ok' }])}>
        <ok.Source />
        <Step id="s" prompt="p" />
      </Agent>,
    ).result;
    expect([ok.probe.connects, ok.probe.closes]).toEqual([1, 1]);

    // failure: a model call fails after the source connected
    const failed = weatherSource();
    const error = await rejectionOf(
      run(
        <Agent model={streamModel([{ error: new Error('model down') }])} maxRetries={0}>
          <failed.Source />
          <Step id="s" prompt="p" />
        </Agent>,
      ).result,
    );
    expect(error.message).toContain('model down');
    expect([failed.probe.connects, failed.probe.closes]).toEqual([1, 1]);

    // abort: during a step, after the source connected
    const aborted = weatherSource();
    const handle = run(
      <Agent model={hangingModel([{ type: 'stream-start', warnings: [] }])}>
        <aborted.Source />
        <Step id="s" prompt="p" />
      </Agent>,
    );
    for await (const event of handle.events) if (event.type === 'step-start') handle.abort();
    expect((await rejectionOf(handle.result)).code).toBe('run-aborted');
    expect([aborted.probe.connects, aborted.probe.closes]).toEqual([1, 1]);
  });

  test('close runs before the result settles', async () => {
    const { Source, probe } = weatherSource();
    const result = run(
      <Agent model={streamModel([{ text: 'ok' }])}>
        <Source />
        <Step id="s" prompt="p" />
      </Agent>,
    ).result;
    const closesWhenSettled = await result.then(() => probe.closes);
    expect(closesWhenSettled).toBe(1);
  });

  test('when one source fails, another still connecting is aborted and the run ends without waiting for it', async () => {
    const slow = weatherSource({ name: 'Slow', hang: true });
    const broken = weatherSource({ name: 'Broken', failures: 1 });
    const handle = run(
      <Agent model={streamModel([])}>
        <slow.Source />
        <Namespace name="b">
          <broken.Source />
        </Namespace>
        <Step id="s" prompt="p" />
      </Agent>,
    );
    const error = await rejectionOf(handle.result);
    expect(error.message).toContain('<Broken> in <Namespace name="b"> could not be resolved');
    expect(slow.probe.signals[0]!.aborted).toBe(true);
  });

  test('connect must resolve to { tools, close? }', async () => {
    const { defineToolSource } = await import('june');
    const Bad = defineToolSource({ name: 'Bad', connect: async () => ({ tool: {} }) as never });
    const error = await rejectionOf(
      run(
        <Agent model={streamModel([])}>
          <Bad />
          <Step id="s" prompt="p" />
        </Agent>,
      ).result,
    );
    expect(error.code).toBe('tool-source-invalid');
    expect(error.message).toContain(
      'june: the connect function of <Bad> resolved to an object with keys ["tool"]',
    );
    expect(() => defineToolSource({ name: '', connect: async () => ({ tools: {} }) })).toThrow(
      /june: defineToolSource\(\) needs a name/,
    );
  });
});

describe('inspect()', () => {
  test('lists an agent’s tool sources without connecting', async () => {
    const { Source, probe } = weatherSource();
    const mine = tool({ inputSchema: z.object({}), execute: async () => 'x' });
    const report = await inspect(
      <Agent model={streamModel([])} name="lead">
        <Namespace name="w">
          <Source />
        </Namespace>
        <Tool name="notes" value={mine} />
        <Agent model={streamModel([])} name="planner">
          <Inherit capabilities={['w_forecast']} />
          <Step id="plan" prompt="p" />
        </Agent>
      </Agent>,
    );

    expect(probe.connects).toBe(0);
    expect(report.agents[0]).toEqual({
      path: 'lead',
      name: 'lead',
      tools: [{ name: 'notes', needsApproval: false, source: '<Tool name="notes">' }],
      toolSources: ['<Weather> in <Namespace name="w">'],
    });
    expect(report.agents[1]).toMatchObject({ path: 'lead > planner', tools: [] });
  });
});
