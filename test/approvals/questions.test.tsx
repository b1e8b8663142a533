// <Question>: a workflow asks a person something typed and goes on with the checked answer,
// through the same inbox, records, resumes and nesting as approvals.
import type { LanguageModelV4, LanguageModelV4Prompt } from '@ai-sdk/provider';
import {
  Agent,
  JuneError,
  Question,
  Step,
  Tool,
  answerQuestion,
  defineAgent,
  isQuestion,
  memoryJournalStore,
  run,
  type ApprovalPolicy,
  type ApprovalRequest,
  type ApprovalSource,
  type JournalRecord,
  type RunEvent,
  type RunHandle,
} from 'june';
import { questionsIn } from 'june/evals';
import { scriptedModel, type ScriptTurn } from 'june/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { unansweredMessage } from '../../src/approvals/unanswered-at-exit.js';
import {
  collect,
  firstEvent,
  isApprovalRequest,
  turnModel,
  unreachableModel,
} from '../durable/support.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const turns: Record<string, ScriptTurn[]> = {
  release: [
    { toolCalls: [{ id: 'c_ask', tool: 'ask_env', input: { question: 'Where should 1.2 go?' } }] },
    { text: 'Going ahead.' },
  ],
};

/** A stateless model (see turnModel) that keeps the prompt of every call it answers. */
function promptedModel(steps: Record<string, ScriptTurn[]> = turns) {
  const inner = turnModel(steps);
  const prompts: LanguageModelV4Prompt[] = [];
  const model: LanguageModelV4 & { prompts: LanguageModelV4Prompt[] } = {
    ...inner,
    prompts,
    doStream: (options) => (prompts.push(options.prompt), inner.doStream(options)),
    doGenerate: (options) => (prompts.push(options.prompt), inner.doGenerate(options)),
  };
  return model;
}

function Ship({
  model,
  timeoutMs,
  onTimeout,
}: {
  model: LanguageModelV4;
  timeoutMs?: number;
  onTimeout?: { answer: 'staging' | 'prod' };
}) {
  return (
    <Agent model={model}>
      <Question
        name="ask_env"
        answer={z.enum(['staging', 'prod'])}
        {...(timeoutMs !== undefined ? { timeoutMs } : {})}
        {...(onTimeout !== undefined ? { onTimeout } : {})}
      />
      <Step id="release" prompt="Ask where to deploy" />
    </Agent>
  );
}

/** The tool results the model read in its last call, as `[toolCallId, output]`. */
function resultsRead(prompt: LanguageModelV4Prompt | undefined) {
  return (prompt ?? []).flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) =>
          part.type === 'tool-result' ? [[part.toolCallId, part.output]] : [],
        )
      : [],
  );
}

async function firstRequest(handle: RunHandle): Promise<ApprovalRequest> {
  return (await firstEvent(handle, isApprovalRequest)).request;
}

function juneError(act: () => void): JuneError {
  try {
    act();
  } catch (error) {
    if (JuneError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a JuneError');
}

const answerSchema = { type: 'string', enum: ['staging', 'prod'] };

afterEach(() => {
  vi.useRealTimers();
});

describe('<Question> as a capability', () => {
  it('gives the model one tool that always waits, whose request says what it asks', async () => {
    const model = promptedModel();
    const handle = run(<Ship model={model} />);
    const request = await firstRequest(handle);
    expect(request).toEqual({
      id: expect.any(String),
      tool: 'ask_env',
      input: { question: 'Where should 1.2 go?' },
      step: 'release',
      toolCallId: 'c_ask',
      key: `${handle.runId}/release#c_ask`,
      kind: 'question',
      question: {
        prompt: 'Where should 1.2 go?',
        answerSchema: expect.objectContaining(answerSchema),
      },
    });
    expect(isQuestion(request)).toBe(true);
    handle.respond(request.id, 'staging');
    const result = await handle.result;
    expect(result.output).toBe('Going ahead.');
    // the model's tool: the question as its input, the answer as its result
    const agent = result.trace.root.children[0]!;
    expect(agent.capabilities).toEqual([{ name: 'ask_env', source: '<Question name="ask_env">' }]);
  });

  it('a fixed prompt is what is asked, and the model gives no input', async () => {
    const model = promptedModel({
      release: [{ toolCalls: [{ id: 'c_ask', tool: 'pick', input: {} }] }, { text: 'Ok.' }],
    });
    const handle = run(
      <Agent model={model}>
        <Question name="pick" answer={z.number().int().min(1)} prompt="How many replicas?" />
        <Step id="release" prompt="Scale" />
      </Agent>,
    );
    const request = await firstRequest(handle);
    expect(request.question).toEqual({
      prompt: 'How many replicas?',
      answerSchema: expect.objectContaining({ type: 'integer', minimum: 1 }),
    });
    handle.respond(request.id, 3);
    await handle.result;
    expect(resultsRead(model.prompts.at(-1))).toEqual([['c_ask', { type: 'json', value: 3 }]]);
  });

  it('a form is an object schema, and its answer reaches the model as JSON', async () => {
    const model = promptedModel({
      release: [
        { toolCalls: [{ id: 'c_ask', tool: 'form', input: { question: 'Release details?' } }] },
        { text: 'Ok.' },
      ],
    });
    const handle = run(
      <Agent model={model}>
        <Question name="form" answer={z.object({ version: z.string(), notes: z.string() })} />
        <Step id="release" prompt="Release" />
      </Agent>,
    );
    const request = await firstRequest(handle);
    expect(request.question!.answerSchema).toMatchObject({
      type: 'object',
      properties: { version: { type: 'string' }, notes: { type: 'string' } },
    });
    handle.respond(request.id, { version: '1.2', notes: 'fixes' });
    await handle.result;
    expect(resultsRead(model.prompts.at(-1))).toEqual([
      ['c_ask', { type: 'json', value: { version: '1.2', notes: 'fixes' } }],
    ]);
  });

  it('refuses bad props with question-invalid before any model call', async () => {
    const model = unreachableModel();
    const failed = (element: Parameters<typeof run>[0]) =>
      run(element).result.then(
        () => undefined,
        (error: unknown) => error as JuneError,
      );
    const late = await failed(
      <Agent model={model}>
        <Question name="ask" answer={z.string()} timeoutMs={0} />
        <Step id="s" prompt="go" />
      </Agent>,
    );
    expect(late?.code).toBe('question-invalid');
    expect(late?.message).toMatch(
      /^june: <Question name="ask"> at .*questions\.test\.tsx:\d+:\d+ has timeoutMs 0; give a whole number/,
    );
    const unfit = await failed(
      <Agent model={model}>
        <Question
          name="ask"
          answer={z.enum(['a', 'b'])}
          timeoutMs={10}
          onTimeout={{ answer: 'c' as 'a' }}
        />
        <Step id="s" prompt="go" />
      </Agent>,
    );
    expect(unfit?.code).toBe('question-invalid');
    expect(unfit?.message).toContain('has an onTimeout answer that does not fit its answer schema');
    expect(model.calls).toBe(0);
  });
});

describe('answering a question', () => {
  it('the answer is checked: a bad one and an approval are refused, the question still waits', async () => {
    const model = promptedModel();
    const handle = run(<Ship model={model} />);
    const request = await firstRequest(handle);

    const bad = juneError(() => handle.respond(request.id, 'moon'));
    expect(bad.code).toBe('approval-output-invalid');
    expect(bad.message).toContain('the answer to the question "ask_env"');
    expect(bad.message).toContain('does not fit its answer schema');
    // the schema as a person reads it, not as JSON Schema
    expect(bad.message).toContain(
      'answer with a value the schema accepts (one of "staging"|"prod")',
    );
    const approved = juneError(() => handle.approve(request.id));
    expect(approved.code).toBe('question-answer-missing');
    expect(approved.message).toMatch(
      /^june: the question "ask_env" in step "release" .* was approved without an answer/,
    );
    expect(handle.pendingApprovals).toEqual([request]);

    handle.respond(request.id, 'prod', { answeredBy: 'ana' });
    const result = await handle.result;
    expect(resultsRead(model.prompts.at(-1))).toEqual([['c_ask', { type: 'text', value: 'prod' }]]);
    const [asked] = questionsIn(result.trace);
    expect(asked).toEqual({
      name: 'ask_env',
      step: 'release',
      prompt: 'Where should 1.2 go?',
      answerSchema: expect.objectContaining(answerSchema),
      status: 'answered',
      answer: 'prod',
      source: 'handle',
      answeredBy: 'ana',
      answeredAt: expect.stringMatching(ISO),
      automatic: false,
    });
  });

  it('a denial reaches the model with its reason', async () => {
    const model = promptedModel();
    const handle = run(<Ship model={model} />);
    const request = await firstRequest(handle);
    handle.deny(request.id, 'ask the release manager instead');
    const result = await handle.result;
    expect(resultsRead(model.prompts.at(-1))).toEqual([
      [
        'c_ask',
        {
          type: 'execution-denied',
          reason: expect.stringContaining('ask the release manager instead'),
        },
      ],
    ]);
    expect(questionsIn(result.trace)[0]).toMatchObject({
      status: 'denied',
      reason: 'ask the release manager instead',
    });
  });

  it('a source answers through the inbox, as the person it names', async () => {
    const answered: string[] = [];
    const desk: ApprovalSource = {
      name: 'desk',
      requested: (request, inbox) => {
        if (!isQuestion(request)) return;
        answered.push(request.question.prompt);
        inbox.answer(request.key!, { approved: false, output: 'staging', answeredBy: 'ben' });
      },
    };
    const result = await run(<Ship model={promptedModel()} />, { approvalSources: [desk] }).result;
    expect(answered).toEqual(['Where should 1.2 go?']);
    expect(questionsIn(result.trace)[0]).toMatchObject({
      answer: 'staging',
      source: 'desk',
      answeredBy: 'ben',
    });
  });
});

describe('with nobody to ask', () => {
  it('a policy answers with answerQuestion, recorded as automatic', async () => {
    const onApproval: ApprovalPolicy = (request) =>
      isQuestion(request) ? answerQuestion('staging') : undefined;
    const result = await run(<Ship model={promptedModel()} />, { onApproval }).result;
    expect(questionsIn(result.trace)[0]).toMatchObject({
      answer: 'staging',
      source: 'policy',
      automatic: true,
    });
  });

  it('a policy that approves everything (june run --approve all) stops the run naming the question', async () => {
    const handle = run(<Ship model={promptedModel()} />, { onApproval: () => true });
    const error = await handle.result.then(
      () => undefined,
      (failure: unknown) => failure as JuneError,
    );
    expect(error?.code).toBe('question-answer-missing');
    expect(error?.message).toMatch(/^june: the question "ask_env" in step "release"/);
    expect(error?.message).toContain('"Where should 1.2 go?"');
    expect(error?.message).toContain('--approve all approves tool calls, not questions');
  });

  it("a script answers offline with its call's answer", async () => {
    const model = scriptedModel({
      $comment: 'Test fixture: a question answered by the script',
      steps: {
        release: [
          {
            toolCalls: [
              {
                id: 'c_ask',
                tool: 'ask_env',
                input: { question: 'Where?' },
                answer: { approved: false, output: 'prod', answeredBy: 'script user' },
              },
            ],
          },
          { text: 'Deploying to prod.' },
        ],
      },
    });
    const result = await run(<Ship model={model} />, { approvalSources: [model.approvals] }).result;
    expect(result.output).toBe('Deploying to prod.');
    expect(questionsIn(result.trace)[0]).toMatchObject({
      prompt: 'Where?',
      answer: 'prod',
      source: 'script',
      answeredBy: 'script user',
    });
    model.assertAllTurnsUsed();
  });

  it('the message at exit names an unanswered question and how to answer it', () => {
    const message = unansweredMessage({
      runId: 'r1',
      requests: [
        {
          id: 'a1',
          tool: 'ask_env',
          input: { question: 'Where?' },
          step: 'release',
          toolCallId: 'c1',
          kind: 'question',
          question: { prompt: 'Where?', answerSchema },
        },
      ],
    });
    expect(message).toMatch(
      /^june: the process is about to exit, but run r1 waits for an answer to question "a1" \(the question "ask_env" in step "release": "Where\?"\)/,
    );
    expect(message).toContain('handle.respond("a1", answer)');
  });
});

describe('a question over time', () => {
  it('an abort withdraws a pending question', async () => {
    const handle = run(<Ship model={promptedModel()} />);
    const { events, done } = collect(handle);
    const request = await firstRequest(handle);
    handle.abort('not today');
    await expect(handle.result).rejects.toMatchObject({ code: 'run-aborted' });
    await done;
    expect(handle.pendingApprovals).toEqual([]);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'approval-withdraw', id: request.id }),
    );
    expect(() => handle.respond(request.id, 'prod')).toThrow(/withdrawn/);
  });

  it('a timeout with onTimeout answers with its value, as automatic, through timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const model = promptedModel();
    const handle = run(<Ship model={model} timeoutMs={60_000} onTimeout={{ answer: 'staging' }} />);
    const request = await firstRequest(handle);
    expect(request.question).toMatchObject({ timeoutMs: 60_000, onTimeout: { answer: 'staging' } });
    vi.advanceTimersByTime(59_999);
    expect(handle.pendingApprovals).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(handle.pendingApprovals).toEqual([]);
    const result = await handle.result;
    expect(resultsRead(model.prompts.at(-1))).toEqual([
      ['c_ask', { type: 'text', value: 'staging' }],
    ]);
    expect(questionsIn(result.trace)[0]).toMatchObject({
      status: 'answered',
      answer: 'staging',
      source: 'timeout',
      automatic: true,
    });
  });

  it('a timeout without onTimeout denies it; the model reads why', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const model = promptedModel();
    const handle = run(<Ship model={model} timeoutMs={500} />);
    await firstRequest(handle);
    vi.advanceTimersByTime(500);
    const result = await handle.result;
    expect(resultsRead(model.prompts.at(-1))).toEqual([
      [
        'c_ask',
        { type: 'execution-denied', reason: expect.stringContaining('no answer within 500 ms') },
      ],
    ]);
    expect(questionsIn(result.trace)[0]).toMatchObject({
      status: 'denied',
      reason: 'no answer within 500 ms',
      source: 'timeout',
    });
  });

  it('an answer before the timeout stands, and the timer is cleared', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const handle = run(<Ship model={promptedModel()} timeoutMs={1_000} />);
    const request = await firstRequest(handle);
    handle.respond(request.id, 'prod');
    const result = await handle.result;
    expect(vi.getTimerCount()).toBe(0);
    expect(questionsIn(result.trace)[0]).toMatchObject({ answer: 'prod', source: 'handle' });
  });
});

describe('a question in the journal', () => {
  const kept = (records: JournalRecord[], type: JournalRecord['type']) =>
    records.filter((record) => record.type === type);

  it('records the question and its answer; a resume asks once, a replay needs no model', async () => {
    const store = memoryJournalStore();
    const handle = run(<Ship model={promptedModel()} />, { journal: store });
    const request = await firstRequest(handle);
    handle.respond(request.id, 'staging', { answeredBy: 'ana' });
    await handle.result;
    const records = await store.read(handle.runId);
    expect(kept(records, 'approval-request')).toEqual([
      expect.objectContaining({
        tool: 'ask_env',
        input: { question: 'Where should 1.2 go?' },
        question: {
          prompt: 'Where should 1.2 go?',
          answerSchema: expect.objectContaining(answerSchema),
        },
      }),
    ]);
    expect(kept(records, 'approval-answer')).toEqual([
      expect.objectContaining({
        approved: false,
        output: 'staging',
        source: 'handle',
        answeredBy: 'ana',
        answeredAt: expect.stringMatching(ISO),
      }),
    ]);

    // a process that died right after the answer was stored: the resume asks nobody
    const crashed = memoryJournalStore();
    const upToAnswer = records.findIndex((record) => record.type === 'approval-answer');
    for (const record of records.slice(0, upToAnswer + 1))
      await crashed.append(handle.runId, record);
    const model = promptedModel();
    const asked: string[] = [];
    const resumed = run(<Ship model={model} />, {
      journal: crashed,
      resume: handle.runId,
      onApproval: (request) => void asked.push(request.tool),
    });
    const { events, done } = collect(resumed);
    const result = await resumed.result;
    await done;
    expect(result.output).toBe('Going ahead.');
    expect(asked).toEqual([]);
    // only the call after the answer is made again, and it reads the recorded answer
    expect(resultsRead(model.prompts[0])).toEqual([['c_ask', { type: 'text', value: 'staging' }]]);
    expect(events.filter((event: RunEvent) => event.type === 'approval-response')).toEqual([
      expect.objectContaining({ output: 'staging', replayed: true, answeredBy: 'ana' }),
    ]);

    const unreachable = unreachableModel();
    const replayed = await run(<Ship model={unreachable} />, { replay: records }).result;
    expect(replayed.output).toBe('Going ahead.');
    expect(unreachable.calls).toBe(0);
    expect(questionsIn(replayed.trace)[0]).toMatchObject({ answer: 'staging', replayed: true });
  });
});

describe('a question inside nested runs', () => {
  const nested: Record<string, ScriptTurn[]> = {
    plan: [
      { toolCalls: [{ id: 'c_release', tool: 'release', input: { version: '1.2' } }] },
      { text: 'Planned.' },
    ],
    'release:prepare': [
      { toolCalls: [{ id: 'c_ship', tool: 'ship', input: { version: '1.2' } }] },
      { text: 'Prepared.' },
    ],
    'release:ship:go': [
      { toolCalls: [{ id: 'c_ask', tool: 'ask_env', input: { question: 'Where?' } }] },
      { text: 'Shipped.' },
    ],
  };

  function Plan({ model }: { model: LanguageModelV4 }) {
    return (
      <Agent model={model}>
        <Tool name="release" description="Release" input={z.object({ version: z.string() })}>
          {({ version }) => (
            <Agent model={model}>
              <Tool name="ship" description="Ship" input={z.object({ version: z.string() })}>
                {() => (
                  <Agent model={model}>
                    <Question name="ask_env" answer={z.enum(['staging', 'prod'])} />
                    <Step id="go" prompt={`Ship ${version}`} />
                  </Agent>
                )}
              </Tool>
              <Step id="prepare" prompt={`Prepare ${version}`} />
            </Agent>
          )}
        </Tool>
        <Step id="plan" prompt="Plan the release" />
      </Agent>
    );
  }

  it('reaches the root inbox three levels down, named by its path, and is answered by its key', async () => {
    const store = memoryJournalStore();
    const handle = run(<Plan model={turnModel(nested)} />, { journal: store });
    const request = await firstRequest(handle);
    expect(request).toMatchObject({
      tool: 'ask_env',
      step: 'release:ship:go',
      kind: 'question',
      question: { prompt: 'Where?' },
    });
    expect(request.key).toBe(`${handle.runId}/plan#0.0/prepare#0.0/go#0.0`);
    expect(juneError(() => handle.respond(request.key!, 'mars')).code).toBe(
      'approval-output-invalid',
    );
    handle.respond(request.key!, 'prod');
    const result = await handle.result;
    expect(result.output).toBe('Planned.');
    expect(questionsIn(result.trace)).toEqual([
      expect.objectContaining({ step: 'release:ship:go', prompt: 'Where?', answer: 'prod' }),
    ]);

    const model = unreachableModel();
    const replayed = await run(<Plan model={model} />, { replay: await store.read(handle.runId) })
      .result;
    expect(replayed.output).toBe('Planned.');
    expect(model.calls).toBe(0);
  });
});

describe('a question inside a defined agent', () => {
  it('reaches the root inbox from the agent, named by its path', async () => {
    const model = turnModel({
      plan: [
        { toolCalls: [{ id: 'c_helper', tool: 'helper', input: { task: 'ship 1.2' } }] },
        { text: 'Helped.' },
      ],
      'helper:answer': [
        { toolCalls: [{ id: 'c_ask', tool: 'ask_env', input: { question: 'Which one?' } }] },
        { text: 'Asked.' },
      ],
    });
    const Helper = defineAgent({
      name: 'helper',
      description: 'Helps',
      input: z.object({ task: z.string() }),
      model,
      prompt: ({ task }) => task,
      capabilities: () => <Question name="ask_env" answer={z.enum(['staging', 'prod'])} />,
    });
    const handle = run(
      <Agent model={model}>
        <Helper />
        <Step id="plan" prompt="Plan" />
      </Agent>,
    );
    const request = await firstRequest(handle);
    expect(request).toMatchObject({ step: 'helper:answer', kind: 'question' });
    // the key names the call through the defined agent's call
    expect(request.key).toMatch(new RegExp(`^${handle.runId}/plan#c_helper[^/]*/answer#c_ask$`));
    handle.respond(request.key!, 'staging');
    const result = await handle.result;
    expect(result.output).toBe('Helped.');
    expect(questionsIn(result.trace)).toEqual([
      expect.objectContaining({ step: 'helper:answer', answer: 'staging' }),
    ]);
  });
});
