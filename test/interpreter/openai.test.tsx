import { tool } from 'ai';
import { Agent, Step, Tool, run, type RunEvent } from 'june';
import { openai } from 'june/sdk/openai';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { startFakeOpenAI, type FakeOpenAIServer } from '../helpers/fake-openai-server.js';

const ENV_NAMES = ['OPENAI_API_KEY', 'OPENAI_BASE_URL'] as const;
let savedEnv: Partial<Record<(typeof ENV_NAMES)[number], string>>;
let server: FakeOpenAIServer;

beforeEach(async () => {
  savedEnv = {};
  for (const name of ENV_NAMES)
    if (process.env[name] !== undefined) savedEnv[name] = process.env[name];
  server = await startFakeOpenAI();
  process.env.OPENAI_BASE_URL = server.baseURL;
  process.env.OPENAI_API_KEY = 'sk-test-june';
});

afterEach(async () => {
  for (const name of ENV_NAMES) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
  await server.close();
});

test('a workflow runs through openai("gpt-5-mini"): streamed text, a tool call, an approval, a second step', async () => {
  const deployed: string[] = [];
  const weather = tool({
    description: 'The weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, tempC: 4 }),
  });
  const deploy = tool({
    description: 'Deploy the forecast page',
    inputSchema: z.object({ env: z.string() }),
    needsApproval: true,
    execute: async ({ env }) => {
      deployed.push(env);
      return `deployed to ${env}`;
    },
  });
  server.reply(
    {
      text: 'Checking the weather.',
      toolCalls: [{ name: 'weather', call_id: 'call_weather', arguments: { city: 'Oslo' } }],
      usage: { inputTokens: 50, outputTokens: 10 },
    },
    { text: 'It is 4C in Oslo.', usage: { inputTokens: 80, outputTokens: 8 } },
    {
      toolCalls: [{ name: 'deploy', call_id: 'call_deploy', arguments: { env: 'staging' } }],
      usage: { inputTokens: 100, outputTokens: 5 },
    },
    { text: 'Published to staging.', usage: { inputTokens: 120, outputTokens: 4 } },
  );

  const handle = run(
    <Agent
      name="forecaster"
      model={openai('gpt-5-mini')}
      instructions="You write weather pages."
      maxRetries={0}
    >
      <Tool name="weather" value={weather} />
      <Tool name="deploy" value={deploy} />
      <Step id="forecast" prompt="What is the weather in Oslo?" />
      <Step id="publish" prompt={({ steps }) => `Publish this forecast: ${steps.forecast}`} />
    </Agent>,
  );

  const events: RunEvent[] = [];
  for await (const event of handle.events) {
    events.push(event);
    if (event.type === 'approval-request') {
      expect(event.request).toMatchObject({
        tool: 'deploy',
        input: { env: 'staging' },
        step: 'publish',
        toolCallId: 'call_deploy',
      });
      expect(deployed).toEqual([]);
      handle.approve(event.request.id);
    }
  }
  const { steps, output, usage } = await handle.result;

  expect(steps).toEqual({ forecast: 'It is 4C in Oslo.', publish: 'Published to staging.' });
  expect(output).toEqual(steps);
  expect(deployed).toEqual(['staging']);
  expect(usage).toMatchObject({ inputTokens: 350, outputTokens: 27, totalTokens: 377 });

  // streamed: the text arrived as several deltas per step
  const deltas = (step: string) =>
    events.flatMap((event) =>
      event.type === 'text-delta' && event.step === step ? [event.delta] : [],
    );
  expect(deltas('forecast')).toEqual([
    'Checking ',
    'the ',
    'weather.',
    'It ',
    'is ',
    '4C ',
    'in ',
    'Oslo.',
  ]);
  expect(
    events
      .filter((event) => event.type === 'tool-result')
      .map((event) => event.type === 'tool-result' && event.output),
  ).toEqual([{ city: 'Oslo', tempC: 4 }, 'deployed to staging']);

  // what the server received
  expect(server.requests).toHaveLength(4);
  for (const request of server.requests) {
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/responses',
      authorization: 'Bearer sk-test-june',
      stream: true,
      body: { model: 'gpt-5-mini' },
    });
    expect(request.body.tools.map((entry: { name: string }) => entry.name).sort()).toEqual([
      'deploy',
      'weather',
    ]);
  }
  const inputs = server.requests.map(
    (request) => request.body.input as Array<Record<string, unknown>>,
  );
  expect(inputs[0]![0]).toEqual({ role: 'developer', content: 'You write weather pages.' });
  expect(inputs[0]).toContainEqual({
    role: 'user',
    content: [{ type: 'input_text', text: 'What is the weather in Oslo?' }],
  });
  expect(inputs[1]).toContainEqual({
    type: 'function_call_output',
    call_id: 'call_weather',
    output: JSON.stringify({ city: 'Oslo', tempC: 4 }),
  });
  // the second step carries the first step's conversation and its own prompt, built from the first result
  expect(inputs[2]).toContainEqual(
    expect.objectContaining({ type: 'function_call_output', call_id: 'call_weather' }),
  );
  expect(inputs[2]).toContainEqual({
    role: 'user',
    content: [{ type: 'input_text', text: 'Publish this forecast: It is 4C in Oslo.' }],
  });
  expect(inputs[2]!.some((item) => item.call_id === 'call_deploy')).toBe(false);
  // after the approval, the tool ran and its output went to the server
  expect(inputs[3]).toContainEqual({
    type: 'function_call',
    call_id: 'call_deploy',
    name: 'deploy',
    arguments: JSON.stringify({ env: 'staging' }),
  });
  expect(inputs[3]).toContainEqual({
    type: 'function_call_output',
    call_id: 'call_deploy',
    output: 'deployed to staging',
  });
  expect(server.pendingReplies).toBe(0);
});

test('a denial through openai("gpt-5-mini") reaches the server as a function call output that says it was denied, and why', async () => {
  const deploy = tool({
    inputSchema: z.object({ env: z.string() }),
    needsApproval: true,
    execute: async () => 'deployed',
  });
  server.reply(
    { toolCalls: [{ name: 'deploy', call_id: 'call_deploy', arguments: { env: 'prod' } }] },
    { text: 'Not deployed.' },
  );
  const handle = run(
    <Agent model={openai('gpt-5-mini')} maxRetries={0}>
      <Tool name="deploy" value={deploy} />
      <Step id="release" prompt="Deploy to prod" />
    </Agent>,
  );
  for await (const event of handle.events)
    if (event.type === 'approval-request') handle.deny(event.request.id, 'prod is frozen');
  expect((await handle.result).output).toBe('Not deployed.');
  expect(server.requests[1]!.body.input).toContainEqual({
    type: 'function_call_output',
    call_id: 'call_deploy',
    output: 'The tool call was denied, so it did not run. Reason: prod is frozen',
  });
});

test('a server error fails the run with model-call-failed naming the step', async () => {
  server.reply({ error: { status: 500, message: 'the fake is down' } });
  const handle = run(
    <Agent model={openai('gpt-5-mini')} maxRetries={0}>
      <Step id="ask" prompt="hi" />
    </Agent>,
  );
  await expect(handle.result).rejects.toMatchObject({
    code: 'model-call-failed',
    message: expect.stringContaining('june: the model call of step "ask" failed: the fake is down'),
  });
  expect(handle.trace().status).toBe('failed');
  expect(server.requests).toHaveLength(1);
});
