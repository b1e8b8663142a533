// Every way a step can fail, run streaming and in batch mode (`stream: false`): the same
// fault gets the same code, blame and message in both, whichever AI SDK call June made.
import { APICallError } from '@ai-sdk/provider';
import { Output, isStepCount, tool } from 'ai';
import { Agent, JuneError, Step, Tool, run, type JuneElement } from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { scriptModel, type MockScript } from '../helpers/mock-stream-model.js';

const weather = Output.object({ schema: z.object({ tempC: z.number() }) });
const lookup = tool({ inputSchema: z.object({}), execute: async () => 'found' });

interface Case {
  name: string;
  script: MockScript[];
  /** The step's `output`, when the case has one. */
  output?: typeof weather;
  stopAfter?: number;
  code: string;
  blame: string;
  message: RegExp;
}

const cases: Case[] = [
  {
    name: 'the provider fails (a plain error)',
    script: [{ error: new Error('503 upstream unavailable') }],
    code: 'model-call-failed',
    blame: 'system',
    message:
      /^june: the model call of step "s" failed: 503 upstream unavailable\. Check the agent's model/,
  },
  {
    name: 'the provider answers with an HTTP error',
    script: [
      {
        error: new APICallError({
          message: 'Unauthorized',
          url: 'http://127.0.0.1/v1/responses',
          requestBodyValues: {},
          statusCode: 401,
          isRetryable: false,
        }),
      },
    ],
    code: 'model-call-failed',
    blame: 'system',
    message: /^june: the model call of step "s" failed: Unauthorized\./,
  },
  {
    name: 'a June error from the model',
    script: [{ error: new JuneError('custom-failure', 'june: custom') }],
    code: 'custom-failure',
    blame: 'system',
    message: /^june: custom$/,
  },
  {
    name: 'an answer that is not JSON for a step with an output',
    script: [{ text: 'not json at all' }],
    output: weather,
    code: 'step-output-invalid',
    blame: 'model',
    message: /^june: the model's answer to step "s" does not match the step's output: /,
  },
  {
    name: 'an empty answer for a step with an output',
    script: [{ text: '' }],
    output: weather,
    code: 'step-output-invalid',
    blame: 'model',
    message: /^june: the model's answer to step "s" does not match the step's output: /,
  },
  {
    name: 'an answer off the output schema',
    script: [{ text: '{"tempC":"warm"}' }],
    output: weather,
    code: 'step-output-invalid',
    blame: 'model',
    message:
      /^june: the model's answer to step "s" does not match the step's output: .*Ask for the fields in the prompt/,
  },
  {
    name: 'a step with an output ended by stopWhen while calling tools',
    script: [{ toolCalls: [{ id: 'c1', name: 'lookup', input: {} }] }],
    output: weather,
    stopAfter: 1,
    code: 'step-limit-reached',
    blame: 'model',
    message: /^june: step "s" has no answer: its stopWhen ended it after 1 model call /,
  },
];

function workflow(c: Case, model: ReturnType<typeof scriptModel>): JuneElement {
  return (
    <Agent
      model={model}
      maxRetries={0}
      {...(c.stopAfter ? { stopWhen: isStepCount(c.stopAfter) } : {})}
    >
      <Tool name="lookup" value={lookup} />
      <Step id="s" prompt="?" {...(c.output ? { output: c.output } : {})} />
    </Agent>
  );
}

describe.each([
  { mode: 'streaming', stream: true },
  { mode: 'batch mode', stream: false },
])('a step that fails, $mode', ({ stream }) => {
  test.each(cases)('$name: $code, blame $blame', async (c) => {
    const model = scriptModel(c.script);
    const handle = run(workflow(c, model), { stream });
    const error = (await handle.result.then(
      () => expect.fail('the run should fail'),
      (caught: unknown) => caught,
    )) as JuneError;
    expect(JuneError.isInstance(error)).toBe(true);
    expect({ code: error.code, blame: error.blame }).toEqual({ code: c.code, blame: c.blame });
    expect(error.message).toMatch(c.message);
    // the trace's step names the same failure
    const step = handle.trace().root.children.flatMap((agent) => agent.children)[0]!;
    expect(step).toMatchObject({ kind: 'step', status: 'failed', error: { code: c.code } });
  });
});

test('both modes give the same code, blame and message for every case', async () => {
  const outcome = async (c: Case, stream: boolean) => {
    const error = (await run(workflow(c, scriptModel(c.script)), { stream }).result.catch(
      (caught: unknown) => caught,
    )) as JuneError;
    return { code: error.code, blame: error.blame, message: error.message };
  };
  for (const c of cases) expect(await outcome(c, false)).toEqual(await outcome(c, true));
});
