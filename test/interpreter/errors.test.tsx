import { Output, tool } from 'ai';
import {
  Agent,
  JuneError,
  Step,
  Tool,
  run,
  type JuneNode,
  type RunHandle,
  type Trace,
  type TraceNode,
} from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { streamModel } from '../helpers/mock-stream-model.js';

function allNodes(node: TraceNode): TraceNode[] {
  return [node, ...node.children.flatMap(allNodes)];
}

async function failure(handle: RunHandle): Promise<JuneError & { trace: Trace }> {
  const error = await handle.result.then(
    () => {
      throw new Error('expected the run to fail');
    },
    (caught: unknown) => caught,
  );
  expect(JuneError.isInstance(error)).toBe(true);
  return error as JuneError & { trace: Trace };
}

describe('tree errors fail before any model call', () => {
  test('a <Step> outside an <Agent>: step-outside-agent', async () => {
    const model = streamModel([{ text: 'never' }]);
    const handle = run(
      <>
        <Agent model={model}>
          <Step id="fine" prompt="?" />
        </Agent>
        <Step id="lost" prompt="?" />
      </>,
    );
    const error = await failure(handle);
    expect(error.code).toBe('step-outside-agent');
    expect(error.blame).toBe('workflow');
    expect(error.message).toMatch(/^june: <Step id="lost">.* has no <Agent> around it/);
    expect(model.doStreamCalls).toHaveLength(0);
  });

  test('duplicate step ids: step-id-duplicate, naming both', async () => {
    const model = streamModel([{ text: 'never' }]);
    function Later() {
      return <Step id="summary" prompt="again" />;
    }
    const error = await failure(
      run(
        <Agent model={model}>
          <Step id="summary" prompt="first" />
          <Later />
        </Agent>,
      ),
    );
    expect(error.code).toBe('step-id-duplicate');
    expect(error.message).toMatch(
      /^june: two steps have the id "summary": <Step id="summary">.* and <Step id="summary">/,
    );
    expect(error.message).toContain('rename one');
    expect(model.doStreamCalls).toHaveLength(0);
  });

  test('duplicate step ids across agents are caught too', async () => {
    const first = streamModel([{ text: 'never' }]);
    const second = streamModel([{ text: 'never' }]);
    const error = await failure(
      run(
        <>
          <Agent model={first}>
            <Step id="a" prompt="?" />
          </Agent>
          <Agent model={second}>
            <Step id="a" prompt="?" />
          </Agent>
        </>,
      ),
    );
    expect(error.code).toBe('step-id-duplicate');
    expect(first.doStreamCalls).toHaveLength(0);
  });

  test('an <Agent> with no model: agent-model-missing', async () => {
    const model = streamModel([{ text: 'never' }]);
    const error = await failure(
      run(
        <Agent model={model}>
          <Step id="a" prompt="?" />
          {/* @ts-expect-error model is required */}
          <Agent name="helper">
            <Step id="b" prompt="?" />
          </Agent>
        </Agent>,
      ),
    );
    expect(error.code).toBe('agent-model-missing');
    expect(error.message).toMatch(
      /^june: <Agent name="helper">.* has no model; pass model=\{\.\.\.\}/,
    );
    expect(model.doStreamCalls).toHaveLength(0);
  });

  test('a render-prop child that is not a function: step-children-not-function', async () => {
    const model = streamModel([{ text: 'never' }]);
    const error = await failure(
      run(
        <Agent model={model}>
          <Step id="a" prompt="?">
            {/* @ts-expect-error children must be one function */}
            <Step id="b" prompt="?" />
          </Step>
        </Agent>,
      ),
    );
    expect(error.code).toBe('step-children-not-function');
    expect(error.message).toMatch(/^june: <Step id="a">.* has children that are not a function/);
    expect(model.doStreamCalls).toHaveLength(0);
  });

  test('a tree error inside an async component is found before the first model call', async () => {
    const model = streamModel([{ text: 'never' }]);
    async function Broken(): Promise<JuneNode> {
      return <Step id="" prompt="?" />;
    }
    const error = await failure(
      run(
        <Agent model={model}>
          <Step id="first" prompt="?" />
          <Broken />
        </Agent>,
      ),
    );
    expect(error.code).toBe('step-id-invalid');
    expect(model.doStreamCalls).toHaveLength(0);
  });

  test('a tree error settles the trace as failed and ends the event stream with run-finish', async () => {
    const handle = run(<Step id="lost" prompt="?" />);
    const error = await failure(handle);
    expect(error.trace.status).toBe('failed');
    expect(error.trace.root).toMatchObject({
      kind: 'run',
      status: 'failed',
      error: { code: 'step-outside-agent' },
    });
    expect(handle.trace().status).toBe('failed');
    expect(allNodes(handle.trace().root).filter((node) => node.status === 'running')).toEqual([]);
    const types: string[] = [];
    for await (const event of handle.events) types.push(event.type);
    expect(types).toEqual(['run-start', 'run-finish']);
  });

  test('run() of something that is not an element throws run-workflow-invalid at once', () => {
    expect(() => run('hello' as never)).toThrow(
      expect.objectContaining({ code: 'run-workflow-invalid' }),
    );
  });
});

describe('errors in a branch rendered by a step', () => {
  test('are found when the branch renders, after the step; agent-start and agent-finish events stay paired', async () => {
    const lookup = tool({ inputSchema: z.object({}), execute: async () => 'x' });
    const model = streamModel([{ text: 'go' }]);
    const handle = run(
      <Agent name="outer" model={model}>
        <Step id="decide" prompt="?">
          {() => (
            <Agent name="inner" model={model}>
              <Tool name="lookup" value={lookup} />
              <Tool name="lookup" value={lookup} />
              <Step id="never" prompt="?" />
            </Agent>
          )}
        </Step>
      </Agent>,
    );
    const error = await failure(handle);
    expect(error.code).toBe('capability-collision');
    expect(model.doStreamCalls).toHaveLength(1);
    const agentEvents: string[] = [];
    for await (const event of handle.events)
      if (event.type === 'agent-start' || event.type === 'agent-finish')
        agentEvents.push(
          `${event.type}:${event.agent}${'unstarted' in event && event.unstarted ? ' (unstarted)' : ''}`,
        );
    // the inner agent failed resolving its capabilities: its finish says it never started
    expect(agentEvents).toEqual([
      'agent-start:outer',
      'agent-finish:inner (unstarted)',
      'agent-finish:outer',
    ]);
    expect(error.trace.status).toBe('failed');
    expect(allNodes(error.trace.root).filter((node) => node.status === 'running')).toEqual([]);
  });
});

describe('failed runs', () => {
  test('a model that throws: the result rejects with model-call-failed, and the trace records the failure', async () => {
    const providerError = new Error('503 upstream unavailable');
    const model = streamModel([{ text: 'first ok', usage: [4, 1] }, { error: providerError }]);
    const handle = run(
      <Agent model={model} maxRetries={0}>
        <Step id="one" prompt="?" />
        <Step id="two" prompt="?" />
        <Step id="three" prompt="never" />
      </Agent>,
    );
    const error = await failure(handle);
    expect(error.code).toBe('model-call-failed');
    expect(error.blame).toBe('system');
    expect(error.message).toMatch(
      /^june: the model call of step "two" failed: 503 upstream unavailable\./,
    );
    expect(error.cause).toBe(providerError);
    expect(model.doStreamCalls).toHaveLength(2);

    for (const trace of [error.trace, handle.trace()]) {
      expect(trace.status).toBe('failed');
      expect(trace.root.error).toMatchObject({ code: 'model-call-failed', message: error.message });
      const nodes = allNodes(trace.root);
      expect(
        nodes.filter((node) => node.status === 'running' || node.status === 'waiting'),
      ).toEqual([]);
      const steps = nodes.filter((node) => node.kind === 'step');
      expect(steps.map((node) => [node.name, node.status])).toEqual([
        ['one', 'succeeded'],
        ['two', 'failed'],
      ]);
      expect(steps[1]!.error).toMatchObject({ code: 'model-call-failed' });
      expect(JSON.parse(JSON.stringify(trace))).toEqual(trace);
    }
    expect(error.trace.root.usage?.totalTokens).toBe(5);
  });

  test('the model calls a failed step made before failing still count in the run’s usage', async () => {
    const lookup = tool({ inputSchema: z.object({}), execute: async () => 'found' });
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'lookup', input: {} }], usage: [7, 3] },
      { error: new Error('timeout') },
    ]);
    const handle = run(
      <Agent model={model} maxRetries={0}>
        <Tool name="lookup" value={lookup} />
        <Step id="s" prompt="?" />
      </Agent>,
    );
    const error = await failure(handle);
    expect(error.code).toBe('model-call-failed');
    expect(error.trace.root.usage).toMatchObject({
      inputTokens: 7,
      outputTokens: 3,
      totalTokens: 10,
    });
    expect(
      allNodes(error.trace.root).find((node) => node.kind === 'step')!.usage?.totalTokens,
    ).toBe(10);
    const events = [];
    for await (const event of handle.events) events.push(event);
    expect(events.find((event) => event.type === 'step-finish')).toMatchObject({
      status: 'failed',
      usage: { totalTokens: 10 },
    });
    expect(events.at(-1)).toMatchObject({
      type: 'run-finish',
      status: 'failed',
      usage: { totalTokens: 10 },
    });
  });

  test('a prompt function that returns something other than a string: step-prompt-invalid, no model call', async () => {
    const model = streamModel([{ text: 'never' }]);
    const handle = run(
      <Agent model={model}>
        <Step id="s" prompt={(() => undefined) as never} />
      </Agent>,
    );
    const error = await failure(handle);
    expect(error.code).toBe('step-prompt-invalid');
    expect(error.message).toMatch(
      /^june: the prompt function of <Step id="s">.* returned undefined; it must return a string/,
    );
    expect(model.doStreamCalls).toHaveLength(0);
    const types = [];
    for await (const event of handle.events)
      types.push(`${event.type}${'unstarted' in event && event.unstarted ? ' (unstarted)' : ''}`);
    // the step failed before its start: its finish says so
    expect(types).toEqual([
      'run-start',
      'agent-start',
      'step-finish (unstarted)',
      'agent-finish',
      'run-finish',
    ]);
  });

  test('a JuneError from the model is passed through as it is', async () => {
    const model = streamModel([{ error: new JuneError('custom-failure', 'june: custom') }]);
    const error = await failure(
      run(
        <Agent model={model} maxRetries={0}>
          <Step id="s" prompt="?" />
        </Agent>,
      ),
    );
    expect(error.code).toBe('custom-failure');
    expect(error.trace.status).toBe('failed');
  });

  test('an answer that does not match the step’s output: step-output-invalid', async () => {
    const model = streamModel([{ text: 'not json at all' }]);
    const handle = run(
      <Agent model={model}>
        <Step
          id="weather"
          prompt="?"
          output={Output.object({ schema: z.object({ tempC: z.number() }) })}
        />
      </Agent>,
    );
    const error = await failure(handle);
    expect(error.code).toBe('step-output-invalid');
    expect(error.blame).toBe('model');
    expect(error.message).toMatch(
      /^june: the model's answer to step "weather" does not match the step's output/,
    );
    expect(error.trace.status).toBe('failed');
  });

  test("an error thrown by your own component rejects the result, a prompt function's as step-prompt-failed naming its step; both carry the trace", async () => {
    function Broken(): JuneNode {
      throw new Error('component bug');
    }
    const model = streamModel([{ text: 'ok' }]);
    const componentError = await run(
      <Agent model={model}>
        <Broken />
      </Agent>,
    ).result.catch((caught: unknown) => caught);
    expect(componentError).toMatchObject({ message: 'component bug' });
    expect((componentError as { trace: Trace }).trace.status).toBe('failed');

    const promptError = await run(
      <Agent model={model}>
        <Step
          id="s"
          prompt={() => {
            throw new Error('prompt bug');
          }}
        />
      </Agent>,
    ).result.catch((caught: unknown) => caught);
    // a prompt function's error names its step; the error it threw is the cause
    expect(promptError).toMatchObject({
      code: 'step-prompt-failed',
      message: expect.stringMatching(
        /^june: the prompt function of <Step id="s"> at test\/interpreter\/errors\.test\.tsx:\d+:\d+ threw: prompt bug$/,
      ),
    });
    expect((promptError as Error).cause).toMatchObject({ message: 'prompt bug' });
    const trace = (promptError as { trace: Trace }).trace;
    expect(trace.status).toBe('failed');
    expect(allNodes(trace.root).find((node) => node.kind === 'step')).toMatchObject({
      status: 'failed',
      error: { code: 'step-prompt-failed' },
    });
    expect(model.doStreamCalls).toHaveLength(0);
  });

  test('a tool error does not fail the run: the model sees it and carries on', async () => {
    const flaky = tool({
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error('flaky');
      },
    });
    const { output, trace } = await run(
      <Agent
        model={streamModel([
          { toolCalls: [{ id: 'c1', name: 'flaky', input: {} }] },
          { text: 'recovered' },
        ])}
      >
        <Tool name="flaky" value={flaky} />
        <Step id="s" prompt="?" />
      </Agent>,
    ).result;
    expect(output).toBe('recovered');
    expect(trace.status).toBe('succeeded');
    expect(allNodes(trace.root).find((node) => node.kind === 'tool')).toMatchObject({
      status: 'failed',
      error: { message: 'flaky' },
    });
  });
});
