import type { ModelMessage } from 'ai';
import { tool } from 'ai';
import { z } from 'zod';
import {
  Agent,
  Step,
  Tool,
  memoryJournalStore,
  run,
  subtreeCost,
  type JournalRecord,
  type RunLogEvent,
  type TraceNode,
} from 'june';
import { scriptedModel, type ModelScript } from 'june/testing';
import { describe, expect, test } from 'vitest';
import { planCompaction, estimateTokens } from '../../src/steps/compaction-plan.js';
import { juneFailure } from '../helpers/june-failure.js';
import Support from '../../examples/compaction.js';

const prompts = (n: number) => Array.from({ length: n }, (_, i) => `Question ${i + 1}?`);

/** A script where step s<i> answers "Answer <i>." and the agent's summaries come in order. */
function script(steps: number, summaries: string[]): ModelScript {
  return {
    steps: {
      ...Object.fromEntries(
        prompts(steps).map((_, i) => [`s${i + 1}`, [{ text: `Answer ${i + 1}.` }]]),
      ),
      ...(summaries.length > 0 ? { 'helper@compact': summaries.map((text) => ({ text })) } : {}),
    },
  };
}

function Long(props: {
  steps: number;
  compact: NonNullable<Parameters<typeof Agent>[0]['compact']>;
  model: Parameters<typeof Agent>[0]['model'];
}) {
  return (
    <Agent name="helper" model={props.model} compact={props.compact}>
      {prompts(props.steps).map((prompt, i) => (
        <Step id={`s${i + 1}`} prompt={prompt} />
      ))}
    </Agent>
  );
}

const agentNode = (root: TraceNode): TraceNode =>
  root.children.find((node) => node.kind === 'agent')!;

/** The text of a prompt's messages, one string per message. */
const texts = (prompt: unknown): string[] =>
  (prompt as Array<{ role: string; content: unknown }>).map((message) =>
    typeof message.content === 'string'
      ? message.content
      : (message.content as Array<{ text?: string }>).map((part) => part.text ?? '').join(''),
  );

describe.each([
  ['streaming', true],
  ['batch', false],
])('an agent with compact, %s', (_mode, stream) => {
  test('older turns become a summary; every step starts within maxMessages; the trace marks each compaction', async () => {
    const model = scriptedModel(script(6, ['Asked 1 and 2.', 'Asked 1 to 3.', 'Asked 1 to 4.']));
    const events: RunLogEvent[] = [];
    const result = await run(
      <Long steps={6} model={model} compact={{ maxMessages: 5, keep: 2 }} />,
      {
        stream,
        consumers: [{ event: (event) => events.push(event) }],
      },
    ).result;

    expect(result.steps.s6).toBe('Answer 6.');
    const stepCalls = model.calls.filter((call) => call.step.startsWith('s'));
    for (const call of stepCalls) expect((call.prompt as unknown[]).length).toBeLessThanOrEqual(5);
    // s4 starts from the first summary, the third exchange and its own prompt
    expect(texts(stepCalls[3]!.prompt)).toEqual([
      'Summary of the earlier conversation:\nAsked 1 and 2.',
      'Question 3?',
      'Answer 3.',
      'Question 4?',
    ]);
    // the second summary replaced the first one with the exchange after it
    expect(texts(stepCalls[4]!.prompt)).toEqual([
      'Summary of the earlier conversation:\nAsked 1 to 3.',
      'Question 4?',
      'Answer 4.',
      'Question 5?',
    ]);
    // the summarizing model read the replaced turns as a transcript
    const summaries = model.calls.filter((call) => call.step === 'helper@compact');
    expect(summaries).toHaveLength(3);
    expect(texts(summaries[0]!.prompt).at(-1)).toBe(
      'Transcript:\nuser: Question 1?\nassistant: Answer 1.\nuser: Question 2?\nassistant: Answer 2.',
    );

    const compactions = events.filter((event) => event.type === 'compaction');
    expect(compactions.map((event) => [event.step, event.replaced, event.kept])).toEqual([
      ['s4', 4, 2],
      ['s5', 3, 2],
      ['s6', 3, 2],
    ]);
    const agent = agentNode(result.trace.root);
    expect(compactions[0]!.nodeId).toBe(agent.id);
    expect(agent.compactions).toMatchObject([
      {
        step: 's4',
        replaced: 4,
        summary: 'Asked 1 and 2.',
        by: 'model',
        calls: 1,
        messages: { before: 7, after: 4 },
      },
      { step: 's5', replaced: 3, summary: 'Asked 1 to 3.' },
      { step: 's6', replaced: 3, summary: 'Asked 1 to 4.' },
    ]);
    expect(model.unusedTurns()).toEqual([]);
  });

  test('a function summary gets the replaced messages; the journal records it and a replay gives it back with 0 model calls', async () => {
    const given: ModelMessage[][] = [];
    const summarize = (messages: ModelMessage[]) => {
      given.push(messages);
      return `${messages.length} messages`;
    };
    const store = memoryJournalStore();
    const model = scriptedModel(script(5, []));
    const handle = run(
      <Long steps={5} model={model} compact={{ maxMessages: 5, keep: 2, summarize }} />,
      { stream, journal: store },
    );
    const recorded = await handle.result;
    // the second summary is given the first with the exchange after it
    expect(given.map((messages) => messages.map((m) => m.role))).toEqual([
      ['user', 'assistant', 'user', 'assistant'],
      ['user', 'user', 'assistant'],
    ]);
    expect(texts(model.calls.at(-1)!.prompt)[0]).toBe(
      'Summary of the earlier conversation:\n3 messages',
    );
    const records: JournalRecord[] = await store.read(handle.runId);
    expect(
      records.filter((r) => r.type === 'model-call' && r.step === 'helper@compact'),
    ).toHaveLength(2);

    const replayModel = scriptedModel({ steps: {} });
    const replayed = await run(
      <Long
        steps={5}
        model={replayModel}
        compact={{
          maxMessages: 5,
          keep: 2,
          summarize: () => {
            throw new Error('not called on a replay');
          },
        }}
      />,
      { stream, replay: records },
    ).result;
    expect(replayModel.calls).toEqual([]);
    expect(replayed.output).toEqual(recorded.output);
    expect(agentNode(replayed.trace.root).compactions?.[0]?.summary).toBe('4 messages');
  });
});

test('a model summary, answered by the script under <agent>@compact, replays from the journal with 0 model calls', async () => {
  const store = memoryJournalStore();
  const model = scriptedModel(script(5, ['Earlier: 1 and 2.', 'Earlier: 1 to 3.']));
  const handle = run(<Long steps={5} model={model} compact={{ maxMessages: 5, keep: 2 }} />, {
    journal: store,
  });
  const recorded = await handle.result;
  const records = await store.read(handle.runId);
  const replayModel = scriptedModel({ steps: {} });
  const replayed = await run(
    <Long steps={5} model={replayModel} compact={{ maxMessages: 5, keep: 2 }} />,
    { replay: records },
  ).result;
  expect(replayModel.calls).toEqual([]);
  expect(replayed.output).toEqual(recorded.output);
  expect(agentNode(replayed.trace.root).compactions?.map((c) => c.summary)).toEqual([
    'Earlier: 1 and 2.',
    'Earlier: 1 to 3.',
  ]);
});

test('maxTokens: the summary works on chunks of the transcript, each within the bound', async () => {
  const long = 'x'.repeat(200); // 50 estimated tokens
  const model = scriptedModel({
    steps: {
      ...Object.fromEntries([1, 2, 3, 4].map((i) => [`s${i}`, [{ text: `${long} ${i}` }]])),
      'helper@compact': [{ text: 'Part one.' }, { text: 'Parts one and two.' }],
    },
  });
  const result = await run(
    <Agent name="helper" model={model} compact={{ maxTokens: 120, keep: 2 }}>
      {[1, 2, 3, 4].map((i) => (
        <Step id={`s${i}`} prompt={`Q${i}`} />
      ))}
    </Agent>,
  ).result;
  const summaries = model.calls.filter((call) => call.step === 'helper@compact');
  expect(summaries).toHaveLength(2);
  // each chunk is at most half the bound (60 estimated tokens), the summary so far beside it
  for (const call of summaries)
    expect(texts(call.prompt).at(-1)!.length / 4).toBeLessThanOrEqual(120);
  expect(texts(summaries[1]!.prompt).at(-1)).toMatch(
    /^Summary so far:\nPart one\.\n\nThe transcript goes on:\n/,
  );
  expect(agentNode(result.trace.root).compactions).toMatchObject([
    { step: 's4', calls: 2, summary: 'Parts one and two.' },
  ]);
});

test('a tool call stays with its result when the cut would fall between them', async () => {
  const lookup = tool({
    inputSchema: z.object({ n: z.number() }),
    execute: ({ n }) => ({ value: n * 2 }),
  });
  const model = scriptedModel({
    steps: {
      s1: [{ toolCalls: [{ tool: 'lookup', input: { n: 1 } }] }, { text: 'Two.' }],
      s2: [{ text: 'Fine.' }],
      'helper@compact': [{ text: 'Looked up 1: 2.' }],
    },
  });
  await run(
    <Agent name="helper" model={model} compact={{ maxMessages: 4, keep: 2 }}>
      <Tool name="lookup" value={lookup} />
      <Step id="s1" prompt="Look up 1." />
      <Step id="s2" prompt="Thanks." />
    </Agent>,
  ).result;
  // s1 left user, call, result, answer: keeping 2 would cut between the call and its result,
  // so the cut moves past the result and only the answer stays
  const s2 = model.calls.find((call) => call.step === 's2')!;
  expect(texts(s2.prompt)).toEqual([
    'Summary of the earlier conversation:\nLooked up 1: 2.',
    'Two.',
    'Thanks.',
  ]);
  const summary = model.calls.find((call) => call.step === 'helper@compact')!;
  expect(texts(summary.prompt).at(-1)).toBe(
    'Transcript:\nuser: Look up 1.\nassistant called lookup({"n":1})\ntool lookup returned: {"value":2}',
  );
});

test('a compact prop that cannot work fails before any model call', async () => {
  const model = scriptedModel({ steps: {} });
  const error = await juneFailure(
    run(<Long steps={1} model={model} compact={{ maxMessages: 10, keep: 9 }} />).result,
  );
  expect(error.code).toBe('agent-compact-invalid');
  expect(error.message).toMatch(
    /^june: the compact prop of <Agent name="helper"> at .*: keeps 9 messages|^june: the compact prop of <Agent name="helper">.* keeps 9 messages/,
  );
  expect(model.calls).toEqual([]);
  const none = await juneFailure(run(<Long steps={1} model={model} compact={{}} />).result);
  expect(none.message).toMatch(/has neither maxMessages nor maxTokens/);
});

describe('planCompaction', () => {
  const user = (text: string): ModelMessage => ({ role: 'user', content: text });
  const answer = (text: string): ModelMessage => ({ role: 'assistant', content: text });
  const call = (id: string): ModelMessage => ({
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: id, toolName: 'deploy', input: {} }],
  });
  const approval = (id: string, approvalId: string): ModelMessage => ({
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: id, toolName: 'deploy', input: {} },
      { type: 'tool-approval-request', approvalId, toolCallId: id },
    ],
  });
  const response = (approvalId: string): ModelMessage => ({
    role: 'tool',
    content: [{ type: 'tool-approval-response', approvalId, approved: true }],
  });
  const result = (id: string): ModelMessage => ({
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: id,
        toolName: 'deploy',
        output: { type: 'json', value: 1 },
      },
    ],
  });

  test('within the bound: nothing to do', () => {
    expect(planCompaction([user('a'), answer('b')], user('c'), { maxMessages: 3 })).toBeUndefined();
  });

  test('system messages are pinned; the recent ones are kept', () => {
    const system: ModelMessage = { role: 'system', content: 'Be brief.' };
    const plan = planCompaction(
      [system, user('1'), answer('1'), user('2'), answer('2')],
      user('3'),
      { maxMessages: 5, keep: 2 },
    );
    expect(plan).toEqual({
      pinned: [system],
      dropped: [user('1'), answer('1')],
      kept: [user('2'), answer('2')],
    });
  });

  test('an approval, its answer and the result stay together with their call', () => {
    const messages = [
      user('1'),
      answer('1'),
      user('2'),
      approval('c1', 'a1'),
      response('a1'),
      result('c1'),
      answer('done'),
    ];
    // keeping 2 or 3 would cut inside the call: the cut moves forward past its result
    for (const keep of [2, 3]) {
      const plan = planCompaction(messages, user('3'), { maxMessages: 6, keep })!;
      expect(plan.kept).toEqual([answer('done')]);
      expect(plan.dropped).toHaveLength(6);
    }
    // keeping 4 cuts before the call: it is kept whole
    const plan = planCompaction(messages, user('3'), { maxMessages: 6, keep: 4 })!;
    expect(plan.kept[0]).toEqual(approval('c1', 'a1'));
    expect(plan.dropped).toEqual([user('1'), answer('1'), user('2')]);
  });

  test('a cut inside the last call moves back before it: the latest turn is always kept', () => {
    const messages = [user('1'), answer('1'), user('2'), call('c1'), result('c1')];
    const plan = planCompaction(messages, undefined, { maxMessages: 4, keep: 1 })!;
    expect(plan.dropped).toEqual([user('1'), answer('1'), user('2')]);
    expect(plan.kept).toEqual([call('c1'), result('c1')]);
  });

  test('maxTokens keeps the recent messages that fit in half of it', () => {
    const big = user('y'.repeat(400)); // 100 tokens
    expect(estimateTokens(big)).toBe(100);
    const plan = planCompaction([big, answer('a'), user('b'), answer('c')], user('d'), {
      maxTokens: 100,
    })!;
    expect(plan.dropped).toEqual([big]);
    expect(plan.kept).toHaveLength(3);
  });
});

describe.each([
  ['streaming', true],
  ['batch', false],
])('examples/compaction.tsx from its script, %s', (_mode, stream) => {
  test('every model request holds at most 8 messages, tool loops included; the follow-up reads the summary', async () => {
    const model = scriptedModel('examples/compaction.script.json');
    const result = await run(<Support />, { model, stream }).result;
    for (const call of model.calls)
      expect(
        (call.prompt as Array<{ role: string }>).filter((m) => m.role !== 'system').length,
      ).toBeLessThanOrEqual(8);
    const followUp = model.calls.find((call) => call.step === 'followUp')!;
    expect(texts(followUp.prompt)[1]).toMatch(/^Summary of the earlier conversation:\nAna: A-1001/);
    // ticket3's second call (after its tool call) would carry 9: its request is compacted,
    // and ticket4 goes on from that compacted conversation with no summary of its own;
    // ticket5 passes the bound again
    expect(
      agentNode(result.trace.root).compactions?.map((c) => [c.step, c.inStep ?? false]),
    ).toEqual([
      ['ticket3', true],
      ['ticket5', false],
    ]);
    const ticket4 = model.calls.find((call) => call.step === 'ticket4')!;
    expect(texts(ticket4.prompt)[1]).toMatch(/^Summary of the earlier conversation:\nAna asked/);
    expect(model.calls.filter((call) => call.step === 'support@compact')).toHaveLength(2);
    expect(model.unusedTurns()).toEqual([]);
  });
});

describe.each([
  ['streaming', true],
  ['batch', false],
])('compaction around an approval, %s', (_mode, stream) => {
  test('the call waiting for approval stays with its answer and its result; the tool runs once', async () => {
    const ran: string[] = [];
    const deploy = tool({
      inputSchema: z.object({ env: z.string() }),
      needsApproval: true,
      execute: ({ env }) => {
        ran.push(env);
        return `Deployed to ${env}`;
      },
    });
    const model = scriptedModel({
      steps: {
        s1: [{ text: 'Checked.' }],
        s2: [{ toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] }, { text: 'Done.' }],
        'helper@compact': [{ text: 'Checked the release.' }],
      },
    });
    const result = await run(
      <Agent name="helper" model={model} compact={{ maxMessages: 4, keep: 2 }}>
        <Tool name="deploy" value={deploy} />
        <Step id="s1" prompt="Check the release." />
        <Step id="s2" prompt="Deploy to staging." />
      </Agent>,
      { stream, onApproval: () => true },
    ).result;
    expect(result.steps.s2).toBe('Done.');
    expect(ran).toEqual(['staging']);
    const last = model.calls.filter((call) => call.step === 's2').at(-1)!;
    const roles = (last.prompt as Array<{ role: string; content: unknown }>).map((m) => m.role);
    expect(roles.length).toBeLessThanOrEqual(4);
    expect(texts(last.prompt)[0]).toBe(
      'Summary of the earlier conversation:\nChecked the release.',
    );
    // the call and its result are both in the request
    const parts = (last.prompt as Array<{ content: unknown }>).flatMap((m) =>
      Array.isArray(m.content) ? (m.content as Array<{ type: string }>).map((p) => p.type) : [],
    );
    expect(parts).toEqual(expect.arrayContaining(['tool-call', 'tool-result']));
    expect(agentNode(result.trace.root).compactions).toMatchObject([
      { step: 's2', inStep: true, replaced: 3 },
    ]);
  });
});

test('a run stopped while it waits for approval resumes from its journal: its summaries are not written again', async () => {
  const deploy = tool({
    inputSchema: z.object({ env: z.string() }),
    needsApproval: true,
    execute: ({ env }) => `Deployed to ${env}`,
  });
  const turns = {
    s1: [{ text: 'Checked.' }],
    s2: [{ text: 'Tagged.' }],
    s3: [{ toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] }, { text: 'Done.' }],
  };
  const Flow = ({ model }: { model: Parameters<typeof Agent>[0]['model'] }) => (
    <Agent name="helper" model={model} compact={{ maxMessages: 4, keep: 1 }}>
      <Tool name="deploy" value={deploy} />
      <Step id="s1" prompt="Check the release." />
      <Step id="s2" prompt="Tag it." />
      <Step id="s3" prompt="Deploy to staging." />
    </Agent>
  );
  const store = memoryJournalStore();
  const first = scriptedModel({
    steps: { ...turns, 'helper@compact': [{ text: 'Checked the release.' }] },
  });
  const handle = run(<Flow model={first} />, { journal: store });
  for await (const event of handle.events) if (event.type === 'approval-request') break;
  handle.abort('the process stopped');
  await handle.result.catch(() => {});
  expect(first.calls.map((call) => call.step)).toEqual(['s1', 's2', 'helper@compact', 's3']);

  // the resumed process gets the first summary and s3's first turn from the journal; after
  // the approval, s3's continuation would carry 5 messages: its request is compacted anew
  const second = scriptedModel({
    steps: {
      s3: [{ text: 'Done.' }],
      'helper@compact': [{ text: 'Checked and tagged the release; deploying.' }],
    },
  });
  const resumed = await run(<Flow model={second} />, {
    journal: store,
    resume: handle.runId,
    onApproval: () => true,
  }).result;
  expect(resumed.steps.s3).toBe('Done.');
  expect(second.calls.map((call) => call.step)).toEqual(['helper@compact', 's3']);
  // the new summary was given the recorded one, not written from the turns it replaced
  expect(texts(second.calls[0]!.prompt).at(-1)).toMatch(
    /^Transcript:\nuser: Summary of the earlier conversation:\nChecked the release\.\nassistant: Tagged\.\nuser: Deploy to staging\.$/,
  );
  expect(agentNode(resumed.trace.root).compactions).toMatchObject([
    { step: 's3', summary: 'Checked the release.' },
    { step: 's3', inStep: true, summary: 'Checked and tagged the release; deploying.' },
  ]);
  expect(second.unusedTurns()).toEqual([]);
});

test("a model summary's cost counts in the agent's and the run's cost", async () => {
  const model = scriptedModel(script(4, ['Asked 1 and 2.']), { name: 'writer' });
  const result = await run(<Long steps={4} model={model} compact={{ maxMessages: 5, keep: 2 }} />, {
    // one dollar per input token: a cost is its input tokens
    prices: { 'june:writer': { inputPerMTok: 1_000_000, outputPerMTok: 0 } },
  }).result;
  const agent = agentNode(result.trace.root);
  const [compaction] = agent.compactions!;
  expect(compaction!.costUsd).toBe(compaction!.usage.inputTokens);
  const steps = agent.children.reduce((sum, step) => sum + subtreeCost(step).usd!, 0);
  expect(subtreeCost(agent).usd).toBe(steps + compaction!.costUsd!);
  expect(subtreeCost(result.trace.root).usd).toBe(subtreeCost(agent).usd);
});

describe.each([
  ['streaming', true],
  ['batch', false],
])('a long tool loop inside one step, %s', (_mode, stream) => {
  test('each summary stands for the turns it replaced for the rest of the step and after it: no turn is summarized twice', async () => {
    const lookup = tool({
      inputSchema: z.object({ n: z.number() }),
      execute: ({ n }) => `Entry ${n}.`,
    });
    const model = scriptedModel({
      steps: {
        s1: [
          ...[1, 2, 3, 4, 5, 6].map((n) => ({ toolCalls: [{ tool: 'lookup', input: { n } }] })),
          { text: 'Read them all.' },
        ],
        s2: [{ text: 'Done.' }],
        'helper@compact': ['A', 'B', 'C'].map((text) => ({ text: `Summary ${text}.` })),
      },
    });
    const result = await run(
      <Agent name="helper" model={model} compact={{ maxMessages: 6, keep: 2 }}>
        <Tool name="lookup" value={lookup} />
        <Step id="s1" prompt="Read the entries." />
        <Step id="s2" prompt="Say you are done." />
      </Agent>,
      { stream },
    ).result;
    expect(result.steps.s2).toBe('Done.');
    for (const call of model.calls)
      expect((call.prompt as unknown[]).length).toBeLessThanOrEqual(6);
    // two compactions inside s1's loop (its 4th and 6th requests), one before s2
    expect(model.calls.map((call) => call.step).join(' ')).toBe(
      's1 s1 s1 helper@compact s1 s1 helper@compact s1 s1 helper@compact s2',
    );
    const transcripts = model.calls
      .filter((call) => call.step === 'helper@compact')
      .map((call) => texts(call.prompt).at(-1)!);
    // each summary is given the one before it, never the turns that one replaced
    expect(transcripts[0]).toMatch(/Entry 1\./);
    expect(transcripts[1]).toMatch(
      /^Transcript:\nuser: Summary of the earlier conversation:\nSummary A\./,
    );
    expect(transcripts[1]).not.toMatch(/Entry 1\./);
    expect(transcripts[2]).toMatch(
      /^Transcript:\nuser: Summary of the earlier conversation:\nSummary B\./,
    );
    expect(transcripts[2]).not.toMatch(/Entry [1-3]\./);
    const s2 = model.calls.find((call) => call.step === 's2')!;
    expect(texts(s2.prompt)[0]).toBe('Summary of the earlier conversation:\nSummary C.');
    expect(model.unusedTurns()).toEqual([]);
  });
});
