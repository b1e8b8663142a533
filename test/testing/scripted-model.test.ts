import { generateText, Output, stepCountIs, streamText, tool } from 'ai';
import { scriptedModel, type ModelScript } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const inStep = (step: string) => ({ june: { step } });

/** The release agent's tools; `ran` records each execution as `name:input`. */
function releaseTools() {
  const ran: string[] = [];
  const tools = {
    readFile: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        ran.push(`readFile:${path}`);
        return '## 1.2.0\n- faster builds';
      },
    }),
    deploy: tool({
      inputSchema: z.object({ env: z.string() }),
      execute: async ({ env }) => {
        ran.push(`deploy:${env}`);
        return { ok: true, env };
      },
    }),
  };
  return { tools, ran };
}

const releaseScript: ModelScript = {
  $comment: 'Test fixture: a release conversation',
  steps: {
    release: [
      {
        text: 'Reading the changelog.',
        toolCalls: [{ tool: 'readFile', input: { path: 'CHANGELOG.md' } }],
      },
      { toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] },
      { text: 'Deployed to staging.' },
    ],
  },
};

describe('scriptedModel with streamText', () => {
  it("streams a turn's text as several deltas that join back to the text", async () => {
    const text = 'Hello there, the build is green and ready.';
    const model = scriptedModel({ steps: { greet: [{ text }] } });
    const result = streamText({ model, prompt: 'Say hi', providerOptions: inStep('greet') });
    const deltas: string[] = [];
    for await (const part of result.fullStream)
      if (part.type === 'text-delta') deltas.push(part.text);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(text);
    expect(await result.text).toBe(text);
    expect(await result.finishReason).toBe('stop');
  });

  it('runs the tool loop: a tool call executes, then the next turn answers', async () => {
    const model = scriptedModel(releaseScript);
    const { tools, ran } = releaseTools();
    const result = streamText({
      model,
      tools,
      prompt: 'Release 1.2.0',
      stopWhen: stepCountIs(5),
      providerOptions: inStep('release'),
    });
    expect(await result.text).toBe('Deployed to staging.');
    const steps = await result.steps;
    expect(steps.map((step) => step.finishReason)).toEqual(['tool-calls', 'tool-calls', 'stop']);
    expect(steps[0]!.text).toBe('Reading the changelog.');
    expect(ran).toEqual(['readFile:CHANGELOG.md', 'deploy:staging']);
    expect(steps[0]!.toolCalls.map((call) => call.toolCallId)).toEqual(['call_release_1_1']);
    expect(model.calls.map(({ step, turn }) => `${step}#${turn}`)).toEqual([
      'release#1',
      'release#2',
      'release#3',
    ]);
    // The second call's prompt ends with the result of the first turn's tool call.
    const toolMessage = model.calls[1]!.prompt.at(-1)!;
    expect(toolMessage.role).toBe('tool');
    expect(JSON.stringify(toolMessage.content)).toContain('faster builds');
    expect(model.unusedTurns()).toEqual([]);
  });

  it('streams structured output from an object turn', async () => {
    const model = scriptedModel({
      steps: { notes: [{ object: { version: '1.2.0', highlights: ['faster builds'] } }] },
    });
    const result = streamText({
      model,
      prompt: 'Write release notes',
      output: Output.object({
        schema: z.object({ version: z.string(), highlights: z.array(z.string()) }),
      }),
      providerOptions: inStep('notes'),
    });
    const partials: unknown[] = [];
    for await (const partial of result.partialOutputStream) partials.push(partial);
    expect(partials.length).toBeGreaterThan(1);
    expect(await result.output).toEqual({ version: '1.2.0', highlights: ['faster builds'] });
  });

  it('emits stream-start, text, tool-call and finish parts in provider order', async () => {
    const model = scriptedModel(releaseScript);
    const { stream } = await model.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
      tools: [{ type: 'function', name: 'readFile', inputSchema: { type: 'object' } }],
      providerOptions: inStep('release'),
    });
    const types: string[] = [];
    const reader = stream.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read())
      types.push(read.value.type);
    expect(types[0]).toBe('stream-start');
    expect(types.filter((type) => type === 'text-delta').length).toBe(3);
    expect(types.slice(-2)).toEqual(['tool-call', 'finish']);
  });
});

describe('scriptedModel with generateText', () => {
  it('runs the same script through doGenerate', async () => {
    const model = scriptedModel(releaseScript, { name: 'release-bot' });
    const { tools, ran } = releaseTools();
    const result = await generateText({
      model,
      tools,
      prompt: 'Release 1.2.0',
      stopWhen: stepCountIs(5),
      providerOptions: inStep('release'),
    });
    expect(result.text).toBe('Deployed to staging.');
    expect(result.steps).toHaveLength(3);
    expect(ran).toEqual(['readFile:CHANGELOG.md', 'deploy:staging']);
    expect(result.response.modelId).toBe('release-bot');
  });

  it('parses an object turn with Output.object', async () => {
    const model = scriptedModel({ steps: { plan: [{ object: { tasks: ['build', 'test'] } }] } });
    const result = await generateText({
      model,
      prompt: 'Plan the release',
      output: Output.object({ schema: z.object({ tasks: z.array(z.string()) }) }),
      providerOptions: inStep('plan'),
    });
    expect(result.output).toEqual({ tasks: ['build', 'test'] });
  });

  it('uses a scripted tool call id and an empty input when they are given or left out', async () => {
    const model = scriptedModel({
      steps: { s: [{ toolCalls: [{ tool: 'ping', id: 'my-call' }, { tool: 'ping' }] }] },
    });
    const inputs: unknown[] = [];
    const ping = tool({
      inputSchema: z.object({}),
      execute: async (input) => (inputs.push(input), 'pong'),
    });
    const result = await generateText({
      model,
      tools: { ping },
      prompt: 'ping twice',
      providerOptions: inStep('s'),
    });
    expect(result.toolCalls.map((call) => call.toolCallId)).toEqual(['my-call', 'call_s_1_2']);
    expect(inputs).toEqual([{}, {}]);
  });
});

describe('scriptedModel step paths and usage', () => {
  it('keeps a separate turn queue per step path, so child runs answer from their own entry', async () => {
    const model = scriptedModel({
      steps: {
        research: [{ text: 'parent 1' }, { text: 'parent 2' }],
        'research:findings': [{ text: 'child 1' }],
      },
    });
    const answer = async (step: string) =>
      (await generateText({ model, prompt: 'x', providerOptions: inStep(step) })).text;
    expect(await answer('research')).toBe('parent 1');
    expect(await answer('research:findings')).toBe('child 1');
    expect(await answer('research')).toBe('parent 2');
  });

  it("reports a turn's scripted usage, or a deterministic default from the prompt and answer", async () => {
    const model = scriptedModel({
      steps: {
        s: [
          { text: 'Deployed to staging.', usage: { inputTokens: 900, outputTokens: 12 } },
          { text: 'Deployed to staging.' },
        ],
      },
    });
    const first = await generateText({ model, prompt: 'Deploy', providerOptions: inStep('s') });
    expect(first.usage).toMatchObject({ inputTokens: 900, outputTokens: 12, totalTokens: 912 });
    const second = await generateText({ model, prompt: 'Deploy', providerOptions: inStep('s') });
    const promptChars = JSON.stringify(model.calls[1]!.prompt).length;
    // 'Deployed to staging.' is 20 characters: 20 / 4 = 5 output tokens.
    expect(second.usage).toMatchObject({
      inputTokens: Math.round(promptChars / 4),
      outputTokens: 5,
    });
  });
});

describe('unused turns', () => {
  it('lists turns that never ran, and assertAllTurnsUsed fails naming them', async () => {
    const model = scriptedModel({
      steps: {
        release: [{ text: 'one' }, { text: 'two' }, { text: 'three' }],
        'release:notes': [{ text: 'notes' }],
      },
    });
    await generateText({ model, prompt: 'x', providerOptions: inStep('release') });
    expect(model.unusedTurns()).toEqual([
      { step: 'release', turn: 2 },
      { step: 'release', turn: 3 },
      { step: 'release:notes', turn: 1 },
    ]);
    expect(() => model.assertAllTurnsUsed()).toThrow(
      expect.objectContaining({
        code: 'script-turns-unused',
        message: expect.stringMatching(
          /^june: the model script has 3 turns that never ran: step "release" turn 2, step "release" turn 3, step "release:notes" turn 1\. Remove them/,
        ),
      }),
    );
  });

  it('passes once every turn has run', async () => {
    const model = scriptedModel({ steps: { only: [{ text: 'done' }] } });
    await generateText({ model, prompt: 'x', providerOptions: inStep('only') });
    expect(() => model.assertAllTurnsUsed()).not.toThrow();
  });
});
