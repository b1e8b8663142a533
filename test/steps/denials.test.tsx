import { tool } from 'ai';
import { Agent, Step, Tool, run, type RunHandle } from 'june';
import { createOpenAI, openai } from 'june/sdk/openai';
import { scriptedModel } from 'june/testing';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { startFakeOpenAI, type FakeOpenAIServer } from '../helpers/fake-openai-server.js';
import { toolResults } from '../helpers/mock-stream-model.js';

const WITH_REASON = 'The tool call was denied, so it did not run. Reason: use the staging list';
const WITHOUT_REASON = 'The tool call was denied, so it did not run.';

/** Two deploy calls in one turn; the first is denied with a reason, the second without. */
function release(model: Parameters<typeof Agent>[0]['model']): RunHandle {
  const deploy = tool({
    inputSchema: z.object({ env: z.string() }),
    needsApproval: true,
    execute: async () => 'deployed',
  });
  const handle = run(
    <Agent model={model} maxRetries={0}>
      <Tool name="deploy" value={deploy} />
      <Step id="release" prompt="Deploy to prod and eu" />
    </Agent>,
  );
  void (async () => {
    for await (const event of handle.events) {
      if (event.type !== 'approval-request') continue;
      if (event.request.toolCallId === 'call_a')
        handle.deny(event.request.id, 'use the staging list');
      else handle.deny(event.request.id);
    }
  })();
  return handle;
}

describe('a denial reads as a denial, with and without a reason', () => {
  let server: FakeOpenAIServer;
  const saved = { ...process.env };
  beforeEach(async () => {
    server = await startFakeOpenAI();
    process.env.OPENAI_BASE_URL = server.baseURL;
    process.env.OPENAI_API_KEY = 'sk-test-june';
  });
  afterEach(async () => {
    process.env.OPENAI_BASE_URL = saved.OPENAI_BASE_URL;
    process.env.OPENAI_API_KEY = saved.OPENAI_API_KEY;
    if (saved.OPENAI_BASE_URL === undefined) delete process.env.OPENAI_BASE_URL;
    if (saved.OPENAI_API_KEY === undefined) delete process.env.OPENAI_API_KEY;
    await server.close();
  });

  test('OpenAI Responses: the function_call_output on the wire says the call was denied, and why', async () => {
    server.reply(
      {
        toolCalls: [
          { name: 'deploy', call_id: 'call_a', arguments: { env: 'prod' } },
          { name: 'deploy', call_id: 'call_b', arguments: { env: 'eu' } },
        ],
      },
      { text: 'Not deployed.' },
    );
    expect((await release(openai('gpt-5-mini')).result).output).toBe('Not deployed.');
    const outputs = (server.requests[1]!.body.input as Array<{ type: string }>).filter(
      (item) => item.type === 'function_call_output',
    );
    expect(outputs).toEqual([
      { type: 'function_call_output', call_id: 'call_a', output: WITH_REASON },
      { type: 'function_call_output', call_id: 'call_b', output: WITHOUT_REASON },
    ]);
  });

  test('OpenAI Chat Completions: the tool message says the call was denied, and why', async () => {
    const bodies: any[] = [];
    const chunk = (choice: object, extra: object = {}) =>
      `data: ${JSON.stringify({ id: 'chat_1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, ...choice }], ...extra })}\n\n`;
    const turns = [
      chunk({
        delta: {
          role: 'assistant',
          tool_calls: [
            {
              index: 0,
              id: 'call_a',
              type: 'function',
              function: { name: 'deploy', arguments: '{"env":"prod"}' },
            },
            {
              index: 1,
              id: 'call_b',
              type: 'function',
              function: { name: 'deploy', arguments: '{"env":"eu"}' },
            },
          ],
        },
        finish_reason: null,
      }) + chunk({ delta: {}, finish_reason: 'tool_calls' }),
      chunk({ delta: { role: 'assistant', content: 'Not deployed.' }, finish_reason: null }) +
        chunk({ delta: {}, finish_reason: 'stop' }),
    ];
    const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body)));
      return new Response(`${turns[bodies.length - 1]}data: [DONE]\n\n`, {
        headers: { 'content-type': 'text/event-stream' },
      });
    };
    const chat = createOpenAI({
      baseURL: 'http://127.0.0.1:9/v1',
      apiKey: 'sk-test-june',
      fetch,
    }).chat('gpt-4o-mini');
    expect((await release(chat).result).output).toBe('Not deployed.');
    expect(
      bodies[1].messages.filter((message: { role: string }) => message.role === 'tool'),
    ).toEqual([
      { role: 'tool', tool_call_id: 'call_a', content: WITH_REASON },
      { role: 'tool', tool_call_id: 'call_b', content: WITHOUT_REASON },
    ]);
  });

  test('the scripted model: its prompt holds execution-denied results whose reason says the call was denied, and why', async () => {
    const model = scriptedModel({
      steps: {
        release: [
          {
            toolCalls: [
              { tool: 'deploy', id: 'call_a', input: { env: 'prod' } },
              { tool: 'deploy', id: 'call_b', input: { env: 'eu' } },
            ],
          },
          { text: 'Not deployed.' },
        ],
      },
    });
    const { output, trace } = await release(model).result;
    expect(output).toBe('Not deployed.');
    expect(toolResults(model.calls[1]!.prompt).map((part) => part.output)).toEqual([
      { type: 'execution-denied', reason: WITH_REASON },
      { type: 'execution-denied', reason: WITHOUT_REASON },
    ]);
    // the trace keeps the reason as the person gave it
    const step = trace.root.children[0]!.children[0]!;
    expect(
      step.children.filter((node) => node.kind === 'tool').map((node) => node.approval?.reason),
    ).toEqual(['use the staging list', undefined]);
  });
});
