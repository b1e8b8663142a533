import { spawnSync } from 'node:child_process';
import {
  generateText,
  stepCountIs,
  streamText,
  tool,
  type ModelMessage,
  type TextStreamPart,
  type ToolSet,
} from 'ai';
import { createOpenAI, openai } from 'june/sdk/openai';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { startFakeOpenAI, type FakeOpenAIServer } from '../helpers/fake-openai-server.js';

// `openai` is imported above, before any test sets OPENAI_BASE_URL / OPENAI_API_KEY: the
// model must read them when it is called, not at import.

const ENV_NAMES = ['OPENAI_API_KEY', 'OPENAI_BASE_URL'] as const;
let savedEnv: Partial<Record<(typeof ENV_NAMES)[number], string>>;
let servers: FakeOpenAIServer[];

beforeEach(() => {
  savedEnv = {};
  for (const name of ENV_NAMES) {
    if (process.env[name] !== undefined) savedEnv[name] = process.env[name];
    delete process.env[name];
  }
  servers = [];
});

afterEach(async () => {
  for (const name of ENV_NAMES) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
  await Promise.all(servers.map((server) => server.close()));
});

async function fakeServer(): Promise<FakeOpenAIServer> {
  const server = await startFakeOpenAI();
  servers.push(server);
  return server;
}

async function collect<TOOLS extends ToolSet>(stream: AsyncIterable<TextStreamPart<TOOLS>>) {
  const parts: TextStreamPart<TOOLS>[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

const textDeltas = (parts: TextStreamPart<ToolSet>[]) =>
  parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : []));

describe('openai(modelId) with the Responses API', () => {
  test('reads OPENAI_BASE_URL and OPENAI_API_KEY set after import, and streams text as deltas', async () => {
    const server = await fakeServer();
    process.env.OPENAI_BASE_URL = server.baseURL;
    process.env.OPENAI_API_KEY = 'sk-test-after-import';
    server.reply({
      text: 'Hello from the fake server',
      usage: { inputTokens: 11, outputTokens: 5 },
    });

    const model = openai('gpt-5-mini');
    expect(model).toMatchObject({
      specificationVersion: 'v4',
      provider: 'openai.responses',
      modelId: 'gpt-5-mini',
    });
    const result = streamText({ model, prompt: 'Say hello', maxRetries: 0 });
    const parts = await collect(result.fullStream);

    expect(textDeltas(parts)).toEqual(['Hello ', 'from ', 'the ', 'fake ', 'server']);
    expect(await result.text).toBe('Hello from the fake server');
    expect(await result.totalUsage).toMatchObject({
      inputTokens: 11,
      outputTokens: 5,
      totalTokens: 16,
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/responses',
      authorization: 'Bearer sk-test-after-import',
      stream: true,
      body: {
        model: 'gpt-5-mini',
        input: [{ role: 'user', content: [{ type: 'input_text', text: 'Say hello' }] }],
      },
    });
  });

  test.each(['streamText', 'generateText'] as const)(
    'a tool call executes and its output reaches the server in the next request (%s)',
    async (call) => {
      const server = await fakeServer();
      process.env.OPENAI_BASE_URL = server.baseURL;
      process.env.OPENAI_API_KEY = 'sk-test';
      server.reply(
        { toolCalls: [{ name: 'weather', call_id: 'call_weather', arguments: { city: 'Oslo' } }] },
        { text: 'It is 4C in Oslo.' },
      );
      const inputs: unknown[] = [];
      const tools = {
        weather: tool({
          description: 'Current weather in a city',
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => {
            inputs.push(city);
            return { city, tempC: 4 };
          },
        }),
      };
      const settings = {
        model: openai('gpt-5-mini'),
        tools,
        prompt: 'Weather in Oslo?',
        stopWhen: stepCountIs(3),
        maxRetries: 0,
      };

      const result = call === 'streamText' ? streamText(settings) : await generateText(settings);
      const content = (await result.steps).flatMap((step) => step.content);

      expect(inputs).toEqual(['Oslo']);
      expect(content).toContainEqual(
        expect.objectContaining({
          type: 'tool-result',
          toolCallId: 'call_weather',
          output: { city: 'Oslo', tempC: 4 },
        }),
      );
      expect(await result.text).toBe('It is 4C in Oslo.');
      expect(server.requests.map((request) => request.stream)).toEqual(
        call === 'streamText' ? [true, true] : [false, false],
      );
      expect(server.requests[0]?.body.tools).toEqual([
        expect.objectContaining({
          type: 'function',
          name: 'weather',
          description: 'Current weather in a city',
        }),
      ]);
      expect(server.requests[1]?.body.input).toEqual(
        expect.arrayContaining([
          {
            type: 'function_call',
            call_id: 'call_weather',
            name: 'weather',
            arguments: '{"city":"Oslo"}',
          },
          {
            type: 'function_call_output',
            call_id: 'call_weather',
            output: '{"city":"Oslo","tempC":4}',
          },
        ]),
      );
      expect(server.pendingReplies).toBe(0);
    },
  );

  test('a needsApproval tool asks for approval, and a denial reaches the server as function_call_output', async () => {
    const server = await fakeServer();
    process.env.OPENAI_BASE_URL = server.baseURL;
    process.env.OPENAI_API_KEY = 'sk-test';
    server.reply(
      {
        text: 'Deleting it.',
        toolCalls: [
          { name: 'deleteFile', call_id: 'call_rm', arguments: { path: '/tmp/report.txt' } },
        ],
      },
      { text: 'Understood, I left the file alone.' },
    );
    let executions = 0;
    const tools = {
      deleteFile: tool({
        inputSchema: z.object({ path: z.string() }),
        needsApproval: true,
        execute: async () => {
          executions += 1;
          return 'deleted';
        },
      }),
    };
    const messages: ModelMessage[] = [{ role: 'user', content: 'Delete /tmp/report.txt' }];

    const first = streamText({
      model: openai('gpt-5-mini'),
      tools,
      messages,
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    const request = (await collect(first.fullStream)).find(
      (part) => part.type === 'tool-approval-request',
    );
    expect(request).toMatchObject({
      toolCall: {
        toolCallId: 'call_rm',
        toolName: 'deleteFile',
        input: { path: '/tmp/report.txt' },
      },
    });
    expect(executions).toBe(0);
    expect(server.requests).toHaveLength(1);

    messages.push(...(await first.response).messages, {
      role: 'tool',
      content: [
        {
          type: 'tool-approval-response',
          approvalId: request!.approvalId,
          approved: false,
          reason: 'not on a Friday',
        },
      ],
    });
    const second = streamText({
      model: openai('gpt-5-mini'),
      tools,
      messages,
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    const parts = await collect(second.fullStream);

    expect(executions).toBe(0);
    expect(parts).toContainEqual(
      expect.objectContaining({ type: 'tool-output-denied', toolCallId: 'call_rm' }),
    );
    expect(await second.text).toBe('Understood, I left the file alone.');
    expect(server.requests[1]?.body.input).toContainEqual({
      type: 'function_call_output',
      call_id: 'call_rm',
      output: 'not on a Friday',
    });
  });

  test('with only OPENAI_BASE_URL set (a local server), it works without a key', async () => {
    const server = await fakeServer();
    process.env.OPENAI_BASE_URL = `${server.baseURL}/`;
    server.reply({ text: 'local ok' });

    const result = await generateText({ model: openai('llama3.2'), prompt: 'hi', maxRetries: 0 });

    expect(result.text).toBe('local ok');
    expect(server.requests[0]).toMatchObject({
      path: '/v1/responses',
      stream: false,
      body: { model: 'llama3.2' },
    });
    expect(server.requests[0]?.authorization).toMatch(/^Bearer \S+$/);
  });

  test('the same model follows the environment when it changes between calls', async () => {
    const [first, second] = [await fakeServer(), await fakeServer()];
    first.reply({ text: 'from the first' });
    second.reply({ text: 'from the second' });
    const model = openai('gpt-5-mini');

    process.env.OPENAI_BASE_URL = first.baseURL;
    expect((await generateText({ model, prompt: 'hi', maxRetries: 0 })).text).toBe(
      'from the first',
    );
    process.env.OPENAI_BASE_URL = second.baseURL;
    process.env.OPENAI_API_KEY = 'sk-second';
    expect((await generateText({ model, prompt: 'hi', maxRetries: 0 })).text).toBe(
      'from the second',
    );
    expect(second.requests[0]?.authorization).toBe('Bearer sk-second');
  });

  test('a server error surfaces with the server message', async () => {
    const server = await fakeServer();
    process.env.OPENAI_BASE_URL = server.baseURL;
    server.reply({
      error: { status: 400, message: 'model "nope" does not exist', code: 'model_not_found' },
    });

    await expect(
      generateText({ model: openai('nope'), prompt: 'hi', maxRetries: 0 }),
    ).rejects.toThrow('model "nope" does not exist');
    await expect(
      generateText({ model: openai('nope'), prompt: 'hi', maxRetries: 0 }),
    ).rejects.toThrow(/no scripted reply/);
  });
});

describe('configuration errors', () => {
  test('with neither OPENAI_API_KEY nor OPENAI_BASE_URL, a model call fails with openai-not-configured', async () => {
    const expected = {
      name: 'SystemError',
      code: 'openai-not-configured',
      blame: 'system',
      message: expect.stringMatching(/^june: /),
    };

    const generated = generateText({ model: openai('gpt-5-mini'), prompt: 'hi', maxRetries: 0 });
    await expect(generated).rejects.toMatchObject(expected);
    const error: unknown = await generated.catch((caught: unknown) => caught);
    for (const hint of [
      'OPENAI_API_KEY',
      'OPENAI_BASE_URL',
      'june run <file> --script <script.json>',
    ]) {
      expect((error as Error).message).toContain(hint);
    }

    // streamText reports errors in the stream: the same error is its `error` part.
    const streamed = streamText({
      model: openai('gpt-5-mini'),
      prompt: 'hi',
      maxRetries: 0,
      onError: () => {},
    });
    const parts = await collect(streamed.fullStream);
    expect(parts).toContainEqual({ type: 'error', error: expect.objectContaining(expected) });
  });

  test('creating a model never fails: the error waits for the call', () => {
    expect(() => openai('gpt-5-mini')).not.toThrow();
    expect(() => openai.chat('gpt-4o-mini')).not.toThrow();
  });

  test('an OPENAI_BASE_URL that is not an http(s) URL fails with openai-base-url-invalid', async () => {
    process.env.OPENAI_BASE_URL = 'localhost:11434/v1';

    await expect(
      generateText({ model: openai('gpt-5-mini'), prompt: 'hi', maxRetries: 0 }),
    ).rejects.toMatchObject({
      code: 'openai-base-url-invalid',
      message: expect.stringContaining('"localhost:11434/v1"'),
    });
  });
});

describe('openai.chat, openai.responses and createOpenAI', () => {
  test('openai.chat(id) posts to /chat/completions; openai.responses(id) to /responses', async () => {
    const server = await fakeServer();
    process.env.OPENAI_BASE_URL = server.baseURL;
    server.reply({ text: 'via responses' });

    expect(openai.chat('gpt-4o-mini').provider).toBe('openai.chat');
    // The fake speaks only the Responses API, so the chat call fails, after reaching the right path.
    await expect(
      generateText({ model: openai.chat('gpt-4o-mini'), prompt: 'hi', maxRetries: 0 }),
    ).rejects.toThrow();
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });

    const result = await generateText({
      model: openai.responses('gpt-5-mini'),
      prompt: 'hi',
      maxRetries: 0,
    });
    expect(result.text).toBe('via responses');
    expect(server.requests[1]?.path).toBe('/v1/responses');
  });

  test('an empty OPENAI_BASE_URL counts as unset: june/sdk/openai loads, and createOpenAI() uses OpenAI', async () => {
    process.env.OPENAI_BASE_URL = '';
    expect(() => createOpenAI({ apiKey: 'sk-test' })).not.toThrow();
    // @ai-sdk/openai@4 builds its default provider when it loads: in a process of its own,
    // the module loads with the variable set but empty
    const loaded = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const { openai } = await import('june/sdk/openai'); console.log(openai('gpt-5-mini').specificationVersion, JSON.stringify(process.env.OPENAI_BASE_URL));",
      ],
      { env: { ...process.env, OPENAI_BASE_URL: '' }, encoding: 'utf8' },
    );
    expect(loaded.stderr).toBe('');
    expect(loaded.stdout).toBe('v4 ""\n');
  });

  test('createOpenAI({ baseURL }) needs no key for a local server', async () => {
    const server = await fakeServer();
    server.reply({ text: 'explicit ok' });
    const local = createOpenAI({ baseURL: server.baseURL });

    const result = await generateText({ model: local('qwen3'), prompt: 'hi', maxRetries: 0 });

    expect(result.text).toBe('explicit ok');
    expect(server.requests[0]?.authorization).toMatch(/^Bearer \S+$/);
  });
});
