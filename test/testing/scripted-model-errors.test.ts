import { generateText, stepCountIs, streamText, tool } from 'ai';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const inStep = (step: string) => ({ june: { step } });

const noop = (name: string) =>
  tool({ description: name, inputSchema: z.object({}), execute: async () => `${name} done` });

/** Runs `promise` and returns what it rejected with. */
async function failure(
  promise: PromiseLike<unknown>,
): Promise<Error & { code?: string; blame?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a failure, but it succeeded');
}

describe('scripted model errors', () => {
  it('fails a call made outside a June step', async () => {
    const model = scriptedModel({ steps: { release: [{ text: 'hi' }] } });
    const error = await failure(generateText({ model, prompt: 'x' }));
    expect(error).toMatchObject({ name: 'WorkflowError', code: 'scripted-call-outside-step' });
    expect(error.message).toMatch(/^june: the scripted model was called outside a June step/);
    expect(error.message).toContain('providerOptions: { june: { step: "<step id>" } }');
    expect(model.calls).toEqual([]);
  });

  it('names a step path the script has no entry for, and lists the ones it has', async () => {
    const model = scriptedModel({
      steps: { release: [{ text: 'a' }], 'research:findings': [{ text: 'b' }] },
    });
    const error = await failure(
      generateText({ model, prompt: 'x', providerOptions: inStep('deploy') }),
    );
    expect(error.code).toBe('script-step-missing');
    expect(error.message).toBe(
      'june: the model script has no turns for step "deploy"; it has turns for "release", "research:findings". ' +
        'Add "deploy" under "steps" in the script, or check the step\'s id.',
    );
  });

  it('says which turn ran out and how many the step has', async () => {
    const model = scriptedModel({ steps: { release: [{ toolCalls: [{ tool: 'build' }] }] } });
    const error = await failure(
      generateText({
        model,
        tools: { build: noop('build') },
        prompt: 'x',
        stopWhen: stepCountIs(5),
        providerOptions: inStep('release'),
      }),
    );
    expect(error.code).toBe('script-turns-exhausted');
    expect(error.message).toBe(
      'june: the model script ran out of turns for step "release": the model was called for turn 2, ' +
        'but the step has 1 turn. Add a turn to steps["release"] in the script.',
    );
  });

  it('numbers turns as in the script file when the turns a journal answered were taken out, and names the file', async () => {
    // a resumed run's script: the first of greet's three turns was answered by the journal
    const model = scriptedModel(
      { steps: { greet: [{ text: 'two' }, { text: 'three' }] } },
      { source: 'greet.script.json', taken: { turns: { greet: 1 } } },
    );
    await generateText({ model, prompt: 'x', providerOptions: inStep('greet') });
    expect(model.calls.map((call) => call.turn)).toEqual([2]);
    expect(model.unusedTurns()).toEqual([{ step: 'greet', turn: 3 }]);
    expect(() => model.assertAllTurnsUsed()).toThrow(
      'june: the model script greet.script.json has 1 turn that never ran: step "greet" turn 3. ',
    );
    await generateText({ model, prompt: 'x', providerOptions: inStep('greet') });
    const error = await failure(
      generateText({ model, prompt: 'x', providerOptions: inStep('greet') }),
    );
    expect(error.message).toBe(
      'june: the model script greet.script.json ran out of turns for step "greet": the model was called for turn 4, ' +
        'but the step has 3 turns. Add a turn to steps["greet"] in the script.',
    );
  });

  it('with unusedTurnsAllowed, turns left over are listed but fail nothing', () => {
    const model = scriptedModel(
      { steps: { greet: [{ text: 'hi' }] } },
      { unusedTurnsAllowed: true },
    );
    expect(model.unusedTurns()).toEqual([{ step: 'greet', turn: 1 }]);
    expect(() => model.assertAllTurnsUsed()).not.toThrow();
  });

  it('names the step, turn and tool when a turn calls a tool the agent does not have', async () => {
    const model = scriptedModel({
      steps: {
        release: [
          { toolCalls: [{ tool: 'build' }] },
          { toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
        ],
      },
    });
    const tools = { build: noop('build'), readFile: noop('readFile') };
    const error = await failure(
      generateText({
        model,
        tools,
        prompt: 'x',
        stopWhen: stepCountIs(5),
        providerOptions: inStep('release'),
      }),
    );
    expect(error.code).toBe('script-tool-unavailable');
    expect(error.message).toBe(
      'june: the model script calls the tool "deploy" at step "release", turn 2, but the agent has no such tool; ' +
        'it has "build", "readFile". Change the tool in the script, or give the agent the tool.',
    );
  });

  it('says when the agent has no tools at all', async () => {
    const model = scriptedModel({ steps: { s: [{ toolCalls: [{ tool: 'deploy' }] }] } });
    const error = await failure(generateText({ model, prompt: 'x', providerOptions: inStep('s') }));
    expect(error.message).toContain('but the agent has no such tool; it has no tools.');
  });

  it("fails the call with a turn's error message, and the next call takes the next turn", async () => {
    const model = scriptedModel({
      steps: { s: [{ error: 'rate limited, try again in 20 s' }, { text: 'recovered' }] },
    });
    const error = await failure(generateText({ model, prompt: 'x', providerOptions: inStep('s') }));
    expect(error).toMatchObject({
      name: 'SystemError',
      code: 'scripted-model-error',
      blame: 'system',
    });
    expect(error.message).toBe('june: rate limited, try again in 20 s');
    // The SDK does not retry it: one call took one turn.
    expect(model.calls.map((call) => call.turn)).toEqual([1]);
    const retry = await generateText({ model, prompt: 'x', providerOptions: inStep('s') });
    expect(retry.text).toBe('recovered');
  });

  it('surfaces a failed turn through streamText as an error part', async () => {
    const model = scriptedModel({ steps: { s: [{ error: 'provider down' }] } });
    const reported: unknown[] = [];
    const result = streamText({
      model,
      prompt: 'x',
      providerOptions: inStep('s'),
      onError: ({ error }) => void reported.push(error),
    });
    const errors: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === 'error') errors.push(part.error);
    expect(errors).toEqual([
      expect.objectContaining({ code: 'scripted-model-error', message: 'june: provider down' }),
    ]);
    expect(reported).toHaveLength(1);
  });

  it('takes no turn when the call is already aborted', async () => {
    const model = scriptedModel({ steps: { s: [{ text: 'hi' }] } });
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const prompt = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'x' }] }];
    const error = await failure(
      model.doStream({ prompt, abortSignal: controller.signal, providerOptions: inStep('s') }),
    );
    expect(error.message).toBe('stop');
    expect(model.unusedTurns()).toEqual([{ step: 's', turn: 1 }]);
  });

  it('rejects an invalid script object before any call, naming the bad field', () => {
    const bad = { steps: { release: [{ text: 'a', object: { b: 1 } }] } };
    expect(() => scriptedModel(bad as never)).toThrow(
      expect.objectContaining({
        code: 'script-invalid',
        message: expect.stringContaining(
          'june: the model script is invalid: $.steps.release[0].object: a turn has text or object, not both',
        ),
      }),
    );
  });
});
