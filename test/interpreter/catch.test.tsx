import { Agent, Catch, inspect, run, Step, type RunEvent, type TraceNode } from 'june';
import { describe, expect, test } from 'vitest';
import { hangingModel, streamModel, userTexts } from '../helpers/mock-stream-model.js';
import { allNodes, collect, rejectionOf, weatherSource } from '../resources/support.js';

const catchNodes = (root: TraceNode) => allNodes(root).filter((node) => node.kind === 'catch');
const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);

describe('<Catch> around a tool source that fails', () => {
  test('retries={2}: fails twice, connects a third time, and the run succeeds', async () => {
    const { Source, probe } = weatherSource({ failures: 2 });
    const model = streamModel([
      { toolCalls: [{ id: 'c1', name: 'forecast', input: { city: 'Oslo' } }] },
      { text: 'Sunny.' },
    ]);
    const handle = run(
      <Catch retries={2}>
        <Agent model={model}>
          <Source />
          <Step id="plan" prompt="Oslo?" />
        </Agent>
      </Catch>,
    );
    const [events, result] = await Promise.all([collect(handle.events), handle.result]);

    expect(probe.connects).toBe(3);
    expect(probe.closes).toBe(1);
    expect(probe.calls).toEqual(['Oslo']);
    expect(result.steps.plan).toBe('Sunny.');
    expect(
      ofType(events, 'error').map((event) => [event.attempt, event.willRetry, event.error.code]),
    ).toEqual([
      [1, true, 'capability-connect-failed'],
      [2, true, 'capability-connect-failed'],
    ]);
    expect(ofType(events, 'error')[0]!.error.message).toBe(
      'june: <Weather> could not be resolved: connection refused (attempt 1). Check the service it connects to, or wrap the agent in <Catch retries={n}> to try again.',
    );
    expect(ofType(events, 'retry').map((event) => [event.attempt, event.retries])).toEqual([
      [2, 2],
      [3, 2],
    ]);
    const attempts = result.trace.root.children;
    expect(attempts.map((node) => [node.kind, node.name, node.status, node.error?.code])).toEqual([
      ['catch', 'attempt 1', 'failed', 'capability-connect-failed'],
      ['catch', 'attempt 2', 'failed', 'capability-connect-failed'],
      ['catch', 'attempt 3', 'succeeded', undefined],
    ]);
    expect(attempts[2]!.children.map((node) => [node.kind, node.status])).toEqual([
      ['agent', 'succeeded'],
    ]);
    expect(result.trace.status).toBe('succeeded');
  });

  test('retries={1}: both attempts fail, and the fallback renders and runs', async () => {
    const { Source, probe } = weatherSource({ failures: 5 });
    const model = streamModel([{ text: 'never' }]);
    const fallbackModel = streamModel([{ text: 'Sorry, no forecast today.' }]);
    const caught: unknown[] = [];
    const handle = run(
      <Catch
        retries={1}
        fallback={(error) => {
          caught.push(error);
          return (
            <Agent model={fallbackModel} name="apology">
              <Step id="apology" prompt="Say sorry" />
            </Agent>
          );
        }}
      >
        <Agent model={model}>
          <Source />
          <Step id="plan" prompt="Oslo?" />
        </Agent>
      </Catch>,
    );
    const [events, result] = await Promise.all([collect(handle.events), handle.result]);

    expect(probe.connects).toBe(2);
    expect(model.doStreamCalls).toHaveLength(0);
    expect(result.output).toBe('Sorry, no forecast today.');
    expect(caught).toHaveLength(1);
    expect((caught[0] as Error).message).toContain(
      '<Weather> could not be resolved: connection refused (attempt 2)',
    );
    expect(ofType(events, 'error').map((event) => event.willRetry)).toEqual([true, false]);
    expect(ofType(events, 'retry')).toHaveLength(1);
    expect(catchNodes(result.trace.root).map((node) => [node.name, node.status])).toEqual([
      ['attempt 1', 'failed'],
      ['attempt 2', 'failed'],
      ['fallback', 'succeeded'],
    ]);
    expect(result.trace.root.children[2]!.children[0]).toMatchObject({
      kind: 'agent',
      name: 'apology',
      status: 'succeeded',
    });
  });

  test('without <Catch>, the failure fails the run with a june: message naming the capability', async () => {
    const { Source, probe } = weatherSource({ failures: 1 });
    const error = await rejectionOf(
      run(
        <Agent model={streamModel([])}>
          <Source />
          <Step id="plan" prompt="Oslo?" />
        </Agent>,
      ).result,
    );
    expect(probe.connects).toBe(1);
    expect(error.code).toBe('capability-connect-failed');
    expect(error.message).toMatch(
      /^june: <Weather> could not be resolved: connection refused \(attempt 1\)\./,
    );
  });

  test('a retry connects afresh: a failed connection two agents shared is not kept', async () => {
    const { Source, probe } = weatherSource({ failures: 1 });
    const model = streamModel([{ text: 'a' }, { text: 'b' }]);
    const result = await run(
      <Catch retries={1}>
        <Agent model={model} name="first">
          <Source />
          <Step id="one" prompt="one" />
        </Agent>
        <Agent model={model} name="second">
          <Source />
          <Step id="two" prompt="two" />
        </Agent>
      </Catch>,
    ).result;

    // attempt 1: the first agent's connect fails; attempt 2 connects once for both agents
    expect(probe.connects).toBe(2);
    expect(probe.closes).toBe(1);
    expect(result.output).toEqual({ one: 'a', two: 'b' });
  });

  test('a connection that succeeded outside the <Catch> is shared with every attempt', async () => {
    const { Source, probe } = weatherSource();
    const model = streamModel([
      { text: 'outside' },
      { error: new Error('model overloaded') },
      { text: 'inside' },
    ]);
    const result = await run(
      <>
        <Agent model={model}>
          <Source />
          <Step id="outside" prompt="one" />
        </Agent>
        <Catch retries={1}>
          <Agent model={model} maxRetries={0}>
            <Source />
            <Step id="inside" prompt="two" />
          </Agent>
        </Catch>
      </>,
    ).result;
    expect(probe.connects).toBe(1);
    expect(result.output).toEqual({ outside: 'outside', inside: 'inside' });
  });
});

describe('<Catch> around steps', () => {
  test('steps re-run in a retry reuse their ids; the failed attempt’s results are forgotten', async () => {
    const prompts: string[][] = [];
    const model = streamModel([
      (options) => (prompts.push(userTexts(options.prompt)), { text: 'draft 1' }),
      { error: new Error('the provider is down') },
      (options) => (prompts.push(userTexts(options.prompt)), { text: 'draft 2' }),
      (options) => (prompts.push(userTexts(options.prompt)), { text: 'checked draft 2' }),
    ]);
    const seenByCheck: unknown[] = [];
    const handle = run(
      <Agent model={model} maxRetries={0}>
        <Catch retries={1}>
          <Step id="draft" prompt="Draft it" />
          <Step
            id="check"
            prompt={({ steps }) => {
              seenByCheck.push(steps.draft);
              return `Check: ${String(steps.draft)}`;
            }}
          />
        </Catch>
      </Agent>,
    );
    const [events, result] = await Promise.all([collect(handle.events), handle.result]);

    expect(result.steps).toEqual({ draft: 'draft 2', check: 'checked draft 2' });
    expect(seenByCheck).toEqual(['draft 1', 'draft 2']);
    // a <Catch> inside an agent also forgets what the failed attempt said in its conversation
    expect(prompts).toEqual([['Draft it'], ['Draft it'], ['Draft it', 'Check: draft 2']]);
    expect(ofType(events, 'step-finish').map((event) => [event.step, event.status])).toEqual([
      ['draft', 'succeeded'],
      ['check', 'failed'],
      ['draft', 'succeeded'],
      ['check', 'succeeded'],
    ]);
    expect(ofType(events, 'error')[0]!.error.message).toContain('the provider is down');
    const agent = result.trace.root.children[0]!;
    expect(agent.children.map((node) => [node.kind, node.name, node.status])).toEqual([
      ['catch', 'attempt 1', 'failed'],
      ['catch', 'attempt 2', 'succeeded'],
    ]);
    expect(agent.children[0]!.children.map((node) => [node.kind, node.name, node.status])).toEqual([
      ['step', 'draft', 'succeeded'],
      ['step', 'check', 'failed'],
    ]);
    // the failed attempt's answered call was paid for: usage counts it (3 answered calls x 10 tokens)
    expect(result.usage.inputTokens).toBe(30);
  });

  test('the fallback may reuse the id of a step that failed', async () => {
    const failing = streamModel([{ text: 'draft' }, { error: new Error('down') }]);
    const result = await run(
      <Catch
        fallback={() => (
          <Agent model={streamModel([{ text: 'fallback answer' }])}>
            <Step id="answer" prompt="p" />
          </Agent>
        )}
      >
        <Agent model={failing} maxRetries={0}>
          <Step id="draft" prompt="p" />
          <Step id="answer" prompt="p" />
        </Agent>
      </Catch>,
    ).result;
    expect(result.steps).toEqual({ answer: 'fallback answer' });
  });

  test('a retried component renders afresh', async () => {
    let renders = 0;
    const model = streamModel([{ error: new Error('flaky') }, { text: 'ok' }]);
    function Work() {
      renders++;
      return (
        <Agent model={model} maxRetries={0}>
          <Step id="work" prompt={`attempt ${renders}`} />
        </Agent>
      );
    }
    const result = await run(
      <Catch retries={1}>
        <Work />
      </Catch>,
    ).result;
    expect(renders).toBe(2);
    expect(userTexts(model.doStreamCalls[1]!.prompt)).toEqual(['attempt 2']);
    expect(result.steps.work).toBe('ok');
  });

  test('the last attempt’s error fails the run when there is no fallback', async () => {
    const model = streamModel([{ error: new Error('down 1') }, { error: new Error('down 2') }]);
    const handle = run(
      <Catch retries={1}>
        <Agent model={model} maxRetries={0}>
          <Step id="work" prompt="p" />
        </Agent>
      </Catch>,
    );
    const [events, failure] = await Promise.all([
      collect(handle.events),
      handle.result.then(
        () => undefined,
        (error: Error) => error,
      ),
    ]);
    expect(failure?.message).toContain('down 2');
    expect(ofType(events, 'error').map((event) => event.willRetry)).toEqual([true, false]);
    expect(events.at(-1)).toMatchObject({ type: 'run-finish', status: 'failed' });
  });

  test('an abort is never caught: no retry, no fallback, the run settles as aborted', async () => {
    const { Source, probe } = weatherSource();
    let fallbacks = 0;
    const handle = run(
      <Catch
        retries={3}
        fallback={() => {
          fallbacks++;
          return null;
        }}
      >
        <Agent model={hangingModel([{ type: 'stream-start', warnings: [] }])}>
          <Source />
          <Step id="work" prompt="p" />
        </Agent>
      </Catch>,
    );
    const events: RunEvent[] = [];
    for await (const event of handle.events) {
      events.push(event);
      if (event.type === 'step-start') handle.abort('stop');
    }
    const error = await rejectionOf(handle.result);

    expect(error.code).toBe('run-aborted');
    expect(fallbacks).toBe(0);
    expect(ofType(events, 'retry')).toEqual([]);
    expect(ofType(events, 'error')).toEqual([]);
    expect(probe.connects).toBe(1);
    expect(probe.closes).toBe(1);
    expect(catchNodes(handle.trace().root).map((node) => [node.name, node.status])).toEqual([
      ['attempt 1', 'aborted'],
    ]);
  });

  test('an abort while a tool source connects is not caught either', async () => {
    const { Source, probe } = weatherSource({ hang: true });
    const handle = run(
      <Catch retries={3}>
        <Agent model={streamModel([])}>
          <Source />
          <Step id="work" prompt="p" />
        </Agent>
      </Catch>,
    );
    await probe.started();
    handle.abort();
    expect((await rejectionOf(handle.result)).code).toBe('run-aborted');
    expect(probe.connects).toBe(1);
  });

  test('retries must be a whole number, and fallback a function', async () => {
    const bad = await rejectionOf(run(<Catch retries={-1}>{null}</Catch>).result);
    expect(bad.code).toBe('catch-retries-invalid');
    expect(bad.message).toMatch(
      /^june: <Catch retries=\{-1\}>.* needs a whole number of retries, 0 or more\.$/,
    );
    const fallback = await rejectionOf(
      run(<Catch fallback={'sorry' as never}>{null}</Catch>).result,
    );
    expect(fallback.code).toBe('catch-fallback-invalid');
  });

  test('inspect() walks the children once and never the fallback', async () => {
    const { Source, probe } = weatherSource();
    const report = await inspect(
      <Catch retries={2} fallback={() => <Agent model={streamModel([])} name="fallback" />}>
        <Agent model={streamModel([])} name="main">
          <Source />
          <Step id="s" prompt="p" />
        </Agent>
      </Catch>,
    );
    expect(report.agents.map((agent) => [agent.name, agent.toolSources])).toEqual([
      ['main', ['<Weather>']],
    ]);
    expect(probe.connects).toBe(0);
  });
});
