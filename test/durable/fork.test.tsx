// Forks of recorded runs: a three-level run (root, composite tool, defineAgent agent) with
// tools that leave a file behind and an approval, forked at a tool result two levels down,
// at the approval, and at a model call with another model; a fork of a fork; a fork of a run
// stopped at an approval.
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { tool } from 'ai';
import {
  Agent,
  defineAgent,
  forkPoints,
  fileJournalStore,
  forkRun,
  listThread,
  memoryJournalStore,
  run,
  Step,
  Tool,
  traceWriter,
  type ForkPoint,
  type JournalHeader,
  type Trace,
  type TraceNode,
} from 'june';
import { findForkPoint } from '../../src/journal/fork-journal.js';
import { loadScript, scriptAfterJournal, scriptedModel, type ScriptTurn } from 'june/testing';
import { questionsIn } from 'june/evals';
import { fileURLToPath } from 'node:url';
import Ship from '../../examples/questions/ship.js';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerModel, firstEvent, isApprovalRequest, turnModel } from './support.js';

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The text of the last tool result in a model call's prompt. */
function lastToolResult(options: LanguageModelV4CallOptions): string {
  for (const message of [...options.prompt].reverse()) {
    if (message.role !== 'tool') continue;
    const part = message.content.findLast((each) => each.type === 'tool-result');
    if (part?.type !== 'tool-result') continue;
    // a denied call's result is its denial, with the reason given
    const output = part.output as { type: string; value?: unknown; reason?: string };
    if (output.value === undefined) return `${output.type}: ${output.reason ?? ''}`;
    return typeof output.value === 'string' ? output.value : JSON.stringify(output.value);
  }
  return '';
}

/** The answers of every step, by step path: each turn may read the tool result before it. */
function turns(
  label: string,
): (
  step: string,
  turn: number,
  prompt: string,
  options: LanguageModelV4CallOptions,
) => ScriptTurn | undefined {
  return (step, turn, _prompt, options) => {
    const seen = lastToolResult(options);
    if (step === 'plan') {
      if (turn === 1)
        return { toolCalls: [{ id: 'c_research', tool: 'research', input: { topic: 'prices' } }] };
      if (turn === 2)
        return { toolCalls: [{ id: 'c_deploy', tool: 'deploy', input: { env: 'prod' } }] };
      return { text: `${label} done after ${seen}` };
    }
    if (step === 'research:summarize') {
      if (turn === 1)
        return {
          toolCalls: [{ id: 'c_analyst', tool: 'analyst', input: { question: 'prices?' } }],
        };
      return { text: `summary of ${seen}` };
    }
    if (turn === 1)
      return { toolCalls: [{ id: 'c_fetch', tool: 'fetch', input: { url: 'https://x.test' } }] };
    return { text: `${label} analysis of ${seen}` };
  };
}

/** The three-level workflow, its models and tools, and the file its tools write to. */
function rig() {
  const dir = tempDir('june-fork-');
  const effects = join(dir, 'effects.txt');
  const effect = (line: string) => appendFileSync(effects, `${line}\n`);
  const modelA = answerModel(turns('A'), 'model-a');
  const modelB = answerModel(turns('B'), 'model-b');
  const fetch = tool({
    description: 'Fetch a page',
    inputSchema: z.object({ url: z.string() }),
    execute: async ({ url }) => {
      effect(`fetch ${url}`);
      return `page of ${url}`;
    },
  });
  const deploy = tool({
    description: 'Deploy',
    inputSchema: z.object({ env: z.string() }),
    needsApproval: true,
    execute: async ({ env }) => {
      effect(`deploy ${env}`);
      return `deployed to ${env}`;
    },
  });
  const Analyst = defineAgent({
    name: 'analyst',
    description: 'Analyses a question',
    input: z.object({ question: z.string() }),
    model: modelA,
    prompt: ({ question }) => `Analyse: ${question}`,
    capabilities: () => <Tool name="fetch" value={fetch} />,
  });
  function Workflow() {
    return (
      <Agent model={modelA}>
        <Tool name="deploy" value={deploy} />
        <Tool
          name="research"
          description="Research a topic"
          input={z.object({ topic: z.string() })}
        >
          {({ topic }) => (
            <Agent model={modelA}>
              <Analyst />
              <Step id="summarize" prompt={`Summarize ${topic}`} />
            </Agent>
          )}
        </Tool>
        <Step id="plan" prompt="Plan the release" />
      </Agent>
    );
  }
  const ran = () => (existsSync(effects) ? readFileSync(effects, 'utf8').trim().split('\n') : []);
  const calls = () => [
    ...modelA.calls.map((call) => `A ${call.step} ${call.turn}`),
    ...modelB.calls.map((call) => `B ${call.step} ${call.turn}`),
  ];
  const reset = () => {
    modelA.calls.length = 0;
    modelB.calls.length = 0;
  };
  return { Workflow, modelA, modelB, ran, calls, reset, effects };
}

/** Every model node of a trace tree, child runs included. */
function modelNodes(node: TraceNode): TraceNode[] {
  const child = (node.output as { trace?: { root: TraceNode } } | undefined)?.trace?.root;
  return [
    ...(node.kind === 'model' ? [node] : []),
    ...node.children.flatMap(modelNodes),
    ...(child ? modelNodes(child) : []),
  ];
}

/** Every node of a trace tree, child runs included. */
function allNodes(node: TraceNode): TraceNode[] {
  const child = (node.output as { trace?: { root: TraceNode } } | undefined)?.trace?.root;
  return [node, ...node.children.flatMap(allNodes), ...(child ? allNodes(child) : [])];
}

const approveAll = () => true;

describe('forkRun', () => {
  it("names each model and tool node of a trace by its record, as the fork points list them, in a fork's replayed prefix too", async () => {
    const { Workflow } = rig();
    const store = memoryJournalStore();
    const original = run(<Workflow />, { journal: store, onApproval: approveAll });
    const recorded = await original.result;
    const points = forkPoints(await store.read(original.runId)).map((point) => point.name);
    const named = (trace: Trace) =>
      allNodes(trace.root).flatMap((node) => {
        if (node.record === undefined) return [];
        const approval = node.approval && node.record.replace(/^tool /, 'approval ');
        return [...(approval ? [approval] : []), node.record];
      });
    // every fork point is a node's record (an approval is its tool node's), and no node names another
    expect([...named(recorded.trace)].sort()).toEqual([...points].sort());
    expect(named(recorded.trace)).toContain('tool fetch plan#0.0/summarize#0.0/answer#0.0');
    expect(named(recorded.trace)).toContain('model plan #2');

    const fork = await forkRun(store, original.runId, {
      at: 'tool fetch plan#0.0/summarize#0.0/answer#0.0',
      change: { result: 'other page' },
    });
    const forked = await run(<Workflow />, { ...fork.options, onApproval: approveAll }).result;
    const replayed = allNodes(forked.trace.root).filter((node) => node.replayed);
    expect(replayed.map((node) => node.record)).toEqual([
      'model plan #0',
      'model plan#0.0/research:summarize #0',
      'model plan#0.0/summarize#0.0/research:analyst:answer #0',
    ]);
    expect([...named(forked.trace)].sort()).toEqual([...points].sort());
  });

  it('forks a three-level run at a tool result two levels down: the prefix replays with no model call and no tool, the rest runs live', async () => {
    const { Workflow, ran, calls, reset } = rig();
    const store = memoryJournalStore();
    const original = run(<Workflow />, { journal: store, onApproval: approveAll });
    const recorded = await original.result;
    expect(recorded.output).toBe('A done after deployed to prod');
    expect(ran()).toEqual(['fetch https://x.test', 'deploy prod']);

    const points = forkPoints(await store.read(original.runId));
    const fetchPoint = points.find((point) => point.name.startsWith('tool fetch '))!;
    expect(fetchPoint.name).toBe('tool fetch plan#0.0/summarize#0.0/answer#0.0');
    expect(fetchPoint.what).toContain('"page of https://x.test"');

    reset();
    const fork = await forkRun(store, original.runId, {
      at: fetchPoint.name,
      change: { result: 'page says: prices doubled' },
    });
    expect(fork.live).toContain('deploy');
    const traces = tempDir('june-fork-traces-');
    const forked = await run(<Workflow />, {
      ...fork.options,
      onApproval: approveAll,
      consumers: [traceWriter({ dir: traces })],
    }).result;

    // the fork point's change flows up through every level
    expect(forked.output).toBe('A done after deployed to prod');
    expect(forked.steps.plan).toBe('A done after deployed to prod');
    // no model call and no tool of the prefix ran again: only what comes after the fork point
    expect(calls()).toEqual([
      'A research:analyst:answer 2',
      'A research:summarize 2',
      'A plan 2',
      'A plan 3',
    ]);
    expect(ran()).toEqual(['fetch https://x.test', 'deploy prod', 'deploy prod']);
    const models = modelNodes(forked.trace.root);
    expect(models.filter((node) => node.replayed).length).toBe(3);
    expect(models.filter((node) => !node.replayed).length).toBe(4);
    const analysis = JSON.stringify(forked.trace);
    expect(analysis).toContain('A analysis of page says: prices doubled');
    expect(analysis).toContain('summary of A analysis of page says: prices doubled');

    // lineage, in the journal's header and the trace
    const header = (await store.read(fork.runId))[0] as JournalHeader;
    const lineage = {
      runId: original.runId,
      record: 'tool fetch plan#0.0/summarize#0.0/answer#0.0',
      change: { kind: 'result', result: 'page says: prices doubled' },
    };
    expect(header.forkedFrom).toEqual(lineage);
    expect(forked.trace.forkedFrom).toEqual(lineage);
    // the trace file Studio reads carries it too
    const file = JSON.parse(readFileSync(join(traces, `${fork.runId}.json`), 'utf8')) as Trace;
    expect(file.forkedFrom).toEqual(lineage);
    expect(recorded.trace.forkedFrom).toBeUndefined();
  });

  it("forks at a composite tool's result: its child run does not run, and the caller reads the new result", async () => {
    const { Workflow, ran, calls, reset } = rig();
    const store = memoryJournalStore();
    const original = run(<Workflow />, { journal: store, onApproval: approveAll });
    await original.result;
    reset();
    const fork = await forkRun(store, original.runId, {
      at: 'tool research plan#0.0',
      change: { result: 'nothing found' },
    });
    const forked = await run(<Workflow />, { ...fork.options, onApproval: approveAll }).result;
    expect(calls()).toEqual(['A plan 2', 'A plan 3']);
    expect(ran()).toEqual(['fetch https://x.test', 'deploy prod', 'deploy prod']);
    expect(forked.output).toBe('A done after deployed to prod');
  });

  it("lists a composite call's result as its model read it, and a new result there is the value the model reads", async () => {
    const seen: unknown[] = [];
    const model = answerModel((step, turn, _prompt, options) => {
      if (step === 'plan' && turn === 1)
        return { toolCalls: [{ id: 'c_research', tool: 'research', input: { topic: 'x' } }] };
      if (step !== 'plan') return { text: 'Nothing blocks.' };
      const tool = options.prompt.findLast((message) => message.role === 'tool');
      const part = tool?.role === 'tool' ? tool.content.at(-1) : undefined;
      seen.push(part?.type === 'tool-result' ? part.output : undefined);
      return { text: 'done' };
    });
    function Workflow() {
      return (
        <Agent model={model}>
          <Tool name="research" description="Research" input={z.object({ topic: z.string() })}>
            {() => (
              <Agent model={model}>
                <Step id="dig" prompt="Dig" />
              </Agent>
            )}
          </Tool>
          <Step id="plan" prompt="Plan" />
        </Agent>
      );
    }
    const store = memoryJournalStore();
    const original = run(<Workflow />, { journal: store });
    await original.result;
    const point = forkPoints(await store.read(original.runId)).find(
      (each) => each.name === 'tool research plan#0.0',
    )!;
    expect(point.what).toBe('research {"topic":"x"} → "Nothing blocks."');
    expect(seen).toEqual([{ type: 'text', value: 'Nothing blocks.' }]);
    for (const result of ['Blocked', { blockers: 1 }]) {
      const fork = await forkRun(store, original.runId, { at: point.name, change: { result } });
      await run(<Workflow />, fork.options).result;
      expect(seen.at(-1)).toEqual(
        typeof result === 'string'
          ? { type: 'text', value: result }
          : { type: 'json', value: result },
      );
      // a fork of the fork lists the new value the same way
      const again = forkPoints(await store.read(fork.runId)).find(
        (each) => each.name === point.name,
      );
      expect(again?.what).toBe(`research {"topic":"x"} → ${JSON.stringify(result)}`);
    }
  });

  it('forks at a model call with another answer: nothing before it is asked again', async () => {
    const { Workflow, ran, calls, reset } = rig();
    const store = memoryJournalStore();
    const original = run(<Workflow />, { journal: store, onApproval: approveAll });
    await original.result;
    reset();
    const fork = await forkRun(store, original.runId, {
      at: 'model plan #2',
      change: { output: 'Held back: prices doubled.' },
    });
    const forked = await run(<Workflow />, fork.options).result;
    expect(forked.output).toBe('Held back: prices doubled.');
    expect(calls()).toEqual([]);
    expect(ran()).toEqual(['fetch https://x.test', 'deploy prod']);
  });

  it('refuses recorded props that were redacted unless they are given again', async () => {
    const { modelA } = rig();
    function Greeting({ token }: { token: string }) {
      return (
        <Agent model={modelA}>
          <Step id="plan" prompt={`Use ${token.length} characters`} />
        </Agent>
      );
    }
    const store = memoryJournalStore();
    const original = run(Greeting, {
      journal: store,
      props: { token: 's3cret-value' },
      redact: { values: ['s3cret-value'] },
      onApproval: approveAll,
    });
    await original.result.catch(() => {});
    await expect(
      forkRun(store, original.runId, { at: 'model plan #0', change: { output: 'hi' } }),
    ).rejects.toMatchObject({
      code: 'fork-redacted',
      message: expect.stringContaining('redacted props (token)'),
    });
    const fork = await forkRun(store, original.runId, {
      at: 'model plan #0',
      change: { output: 'hi' },
      props: { token: 's3cret-value' },
    });
    expect((await run(Greeting, fork.options).result).output).toBe('hi');
    expect(JSON.stringify(await store.read(fork.runId))).not.toContain('s3cret-value');
  });

  it("runs live the tool calls of the fork point's turn recorded after it, and replays those recorded before", async () => {
    const dir = tempDir('june-fork-turn-');
    const effects = join(dir, 'effects.txt');
    const counted = (name: string) =>
      tool({
        description: `The ${name} tool`,
        inputSchema: z.object({}),
        execute: async () => {
          appendFileSync(effects, `${name}\n`);
          return `${name} ran`;
        },
      });
    const model = turnModel({
      work: [
        {
          toolCalls: [
            { id: 'c_a', tool: 'a', input: {} },
            { id: 'c_b', tool: 'b', input: {} },
            { id: 'c_c', tool: 'c', input: {} },
          ],
        },
        { text: 'all done' },
      ],
    });
    function Turn() {
      return (
        <Agent model={model}>
          <Tool name="a" value={counted('a')} />
          <Tool name="b" value={counted('b')} />
          <Tool name="c" value={counted('c')} />
          <Step id="work" prompt="Do the work" />
        </Agent>
      );
    }
    const store = memoryJournalStore();
    const original = run(<Turn />, { journal: store });
    await original.result;
    const order = forkPoints(await store.read(original.runId))
      .filter((point) => point.type === 'tool-call')
      .map((point) => (point.record as { tool: string }).tool);
    const [, middle, last] = order;
    const ranBefore = readFileSync(effects, 'utf8');
    const fork = await forkRun(store, original.runId, {
      at: `tool ${middle} work#0.${['a', 'b', 'c'].indexOf(middle!)}`,
      change: { result: 'changed' },
    });
    await run(<Turn />, fork.options).result;
    // only the call recorded after the fork point ran again
    expect(readFileSync(effects, 'utf8')).toBe(`${ranBefore}${last}\n`);
  });

  it("forks at a question's answer with another answer, which the rest of the run reads", async () => {
    const script = loadScript(
      fileURLToPath(new URL('../../examples/questions/ship.script.json', import.meta.url)),
    );
    const first = scriptedModel(script);
    const store = memoryJournalStore();
    const original = run(<Ship />, {
      journal: store,
      model: first,
      approvalSources: [first.approvals],
    });
    await original.result;
    // the question answered last: the other one's answer is part of the prefix
    const last = forkPoints(await store.read(original.runId))
      .filter((point) => point.type === 'approval')
      .at(-1)!;
    const env = last.name.startsWith('approval ask_env');
    const answer = env ? 'prod' : { title: 'Smaller bundles', highlights: [] };
    const fork = await forkRun(store, original.runId, {
      at: last.name,
      change: { output: answer },
    });
    const rest = scriptedModel(scriptAfterJournal(script, await store.read(fork.runId)));
    const forked = await run(<Ship />, { ...fork.options, model: rest }).result;
    const asked = questionsIn(forked.trace).find(
      (question) => question.name === (env ? 'ask_env' : 'ask_notes'),
    );
    expect(asked?.answer).toEqual(answer);
    expect(forked.output).toContain('Deployed 1.2.0');
  });

  it("refuses an answer at a question that does not fit the question's answer schema, storing nothing", async () => {
    const script = loadScript(
      fileURLToPath(new URL('../../examples/questions/ship.script.json', import.meta.url)),
    );
    const model = scriptedModel(script);
    const store = memoryJournalStore();
    const original = run(<Ship />, { journal: store, model, approvalSources: [model.approvals] });
    await original.result;
    const points = forkPoints(await store.read(original.runId));
    const env = points.find((point) => point.name.startsWith('approval ask_env'))!;
    const notes = points.find((point) => point.name.startsWith('approval ask_notes'))!;
    const runs = await store.list();
    await expect(
      forkRun(store, original.runId, { at: env.name, change: { output: 'moon' } }),
    ).rejects.toMatchObject({
      code: 'fork-change-invalid',
      message: expect.stringMatching(
        /^june: the answer given at "approval ask_env [^"]+" does not fit the question's answer schema: \$: .*one of "staging"\|"prod"/,
      ),
    });
    await expect(
      forkRun(store, original.runId, {
        at: notes.name,
        change: { output: { title: '', highlights: [] } },
      }),
    ).rejects.toMatchObject({
      code: 'fork-change-invalid',
      message: expect.stringContaining('$.title'),
    });
    expect(await store.list()).toEqual(runs);
    // an answer that fits is taken
    await expect(
      forkRun(store, original.runId, { at: env.name, change: { output: 'staging' } }),
    ).resolves.toMatchObject({ point: { name: env.name } });
  });

  it('says when a change is what the record holds already', async () => {
    const { Workflow } = rig();
    const store = memoryJournalStore();
    const original = run(<Workflow />, { journal: store, onApproval: approveAll });
    await original.result;
    const unchanged = async (at: string, change: Parameters<typeof forkRun>[2]['change']) =>
      (await forkRun(store, original.runId, { at, change })).unchanged;
    const point = forkPoints(await store.read(original.runId)).find((each) =>
      each.name.startsWith('tool fetch'),
    )!;
    expect(await unchanged('approval deploy plan#1.0', { answer: 'approve' })).toBe(true);
    expect(await unchanged('approval deploy plan#1.0', { answer: 'deny' })).toBe(false);
    expect(await unchanged(point.name, { result: 'page of https://x.test' })).toBe(true);
    expect(await unchanged(point.name, { result: 'page of elsewhere' })).toBe(false);
    expect(await unchanged('model plan #0', { model: 'other-model' })).toBe(false);
  });

  for (const kind of ['memory', 'file'] as const)
    it(`forks a thread's run as an alternative history, not a run of the thread (${kind} store)`, async () => {
      const store =
        kind === 'memory' ? memoryJournalStore() : fileJournalStore({ dir: tempDir('june-fork-') });
      // each reply names how many messages the agent was given: its conversation so far
      const model = answerModel((_step, _turn, _prompt, options) => ({
        text: `reply to ${options.prompt.length} messages`,
      }));
      function Support({ message }: { message: string }) {
        return (
          <Agent name="support" model={model}>
            <Step id="reply" prompt={message} />
          </Agent>
        );
      }
      const first = run(<Support message="one" />, { journal: store, thread: 't' });
      await first.result;
      const second = run(<Support message="two" />, { journal: store, thread: 't' });
      expect((await second.result).output).toBe('reply to 3 messages');
      // forked at the second run's model call: it starts from the first run's conversation
      const fork = await forkRun(store, second.runId, {
        at: 'model reply #0',
        change: { settings: { temperature: 0.5 } },
      });
      const header = (await store.read(fork.runId))[0] as JournalHeader;
      expect(header.thread).toBeUndefined();
      expect(header.threadFrom).toEqual({ id: 't', order: 2 });
      // another run holding the thread does not keep the fork from running
      const lease = await store.threadLease!('t', 'someone');
      try {
        const forked = await run(<Support message="two" />, fork.options).result;
        expect(forked.output).toBe('reply to 3 messages');
      } finally {
        await lease.release();
      }
      expect((await listThread(store, 't')).map((each) => each.runId)).toEqual([
        first.runId,
        second.runId,
      ]);
      // the thread goes on from its own last run, not from the fork
      const third = run(<Support message="three" />, { journal: store, thread: 't' });
      expect((await third.result).output).toBe('reply to 5 messages');
      expect((await listThread(store, 't')).map((each) => each.order)).toEqual([1, 2, 3]);
    });

  it('refuses model settings it does not know, or of the wrong kind', async () => {
    const { Workflow } = rig();
    const store = memoryJournalStore();
    const original = run(<Workflow />, { journal: store, onApproval: approveAll });
    await original.result;
    await expect(
      forkRun(store, original.runId, {
        at: 'model plan #1',
        change: { settings: { warmth: 1 } as never },
      }),
    ).rejects.toMatchObject({
      code: 'fork-change-invalid',
      message: expect.stringContaining('have no setting "warmth"'),
    });
    await expect(
      forkRun(store, original.runId, {
        at: 'model plan #1',
        change: { settings: { temperature: 'hot' as unknown as number } },
      }),
    ).rejects.toMatchObject({ code: 'fork-change-invalid' });
    await expect(
      forkRun(store, original.runId, {
        at: 'tool deploy plan#1.0',
        change: { settings: { seed: 1 } },
      }),
    ).rejects.toMatchObject({ code: 'fork-change-invalid' });
  });

  it('refuses a change that does not fit the record, naming what does', async () => {
    const { Workflow } = rig();
    const store = memoryJournalStore();
    const original = run(<Workflow />, { journal: store, onApproval: approveAll });
    await original.result;
    await expect(
      forkRun(store, original.runId, { at: 'approval deploy plan#1.0', change: { result: 1 } }),
    ).rejects.toMatchObject({ code: 'fork-change-invalid' });
    await expect(
      forkRun(store, original.runId, { at: 'tool nowhere#0.0', change: { result: 1 } }),
    ).rejects.toMatchObject({ code: 'fork-record-unknown' });
  });

  it('names the first eight records and how many more a run has when --at names none', () => {
    const points = Array.from({ length: 10 }, (_, i) => ({ n: i + 1, name: `model plan #${i}` }));
    expect(() => findForkPoint(points as ForkPoint[], 11)).toThrow(
      'its records are 1. model plan #0; 2. model plan #1; 3. model plan #2; 4. model plan #3; ' +
        '5. model plan #4; 6. model plan #5; 7. model plan #6; 8. model plan #7 and 2 more. ' +
        'Name one by its name or number (june fork <run> lists them).',
    );
  });

  for (const stream of [true, false]) {
    describe(stream ? 'streaming' : 'batch mode', () => {
      it('forks at an approval: approved becomes denied, the tool does not run, and the model reads the denial', async () => {
        const { Workflow, ran, calls, reset } = rig();
        const store = memoryJournalStore();
        const original = run(<Workflow />, { journal: store, onApproval: approveAll, stream });
        await original.result;
        reset();
        const fork = await forkRun(store, original.runId, {
          at: 'approval deploy plan#1.0',
          change: { answer: 'deny', reason: 'not on a Friday' },
        });
        // no approval is asked after the changed one: the words leave out counts of 0
        expect(fork.live).toBe(
          'after approval deploy plan#1.0 everything runs live; the recorded run had 1 model call, 1 tool execution (deploy) there, and the new answer may lead elsewhere',
        );
        const forked = await run(<Workflow />, { ...fork.options, stream }).result;
        expect(ran()).toEqual(['fetch https://x.test', 'deploy prod']);
        expect(calls()).toEqual(['A plan 3']);
        expect(forked.output).toMatch(/^A done after .*not on a Friday/);
        expect(forked.trace.forkedFrom?.record).toBe('approval deploy plan#1.0');
      });

      it('forks at a model call with another model for the agent that made it', async () => {
        const { Workflow, calls, reset, ran } = rig();
        const store = memoryJournalStore();
        const original = run(<Workflow />, { journal: store, onApproval: approveAll, stream });
        await original.result;
        reset();
        const { modelB } = rig();
        const fork = await forkRun(store, original.runId, {
          at: 'model plan#0.0/summarize#0.0/research:analyst:answer #1',
          change: { model: modelB },
        });
        const forked = await run(<Workflow />, {
          ...fork.options,
          fork: { ...fork.options.fork, model: { ...fork.options.fork.model!, model: modelB } },
          onApproval: approveAll,
          stream,
        }).result;
        // the analyst's call #1 onwards is model B's; the other agents keep model A
        expect(modelB.calls.map((call) => `${call.step} ${call.turn}`)).toEqual([
          'research:analyst:answer 2',
        ]);
        expect(calls()).toEqual(['A research:summarize 2', 'A plan 2', 'A plan 3']);
        expect(JSON.stringify(forked.trace)).toContain('summary of B analysis of page of');
        expect(ran()).toEqual(['fetch https://x.test', 'deploy prod', 'deploy prod']);
        expect(forked.trace.forkedFrom?.change).toEqual({ kind: 'model', model: 'model-b' });
      });

      it('forks at a model call with other settings from that call on: the calls before keep their requests, and the fork replays', async () => {
        const { Workflow, reset } = rig();
        const store = memoryJournalStore();
        const original = run(<Workflow />, { journal: store, onApproval: approveAll, stream });
        await original.result;
        reset();
        const at = 'model plan#0.0/summarize#0.0/research:analyst:answer #1';
        const fork = await forkRun(store, original.runId, {
          at,
          change: { settings: { temperature: 0.2, maxOutputTokens: 300 } },
        });
        expect(fork.live).toContain('and the new settings may lead elsewhere');
        // what each live call is asked with
        const asked: string[] = [];
        const live = answerModel((step, turn, prompt, options) => {
          asked.push(`${step} ${turn} ${options.temperature} ${options.maxOutputTokens}`);
          return turns('A')(step, turn, prompt, options);
        }, 'model-a');
        const forked = await run(<Workflow />, {
          ...fork.options,
          model: live,
          onApproval: approveAll,
          stream,
        }).result;
        // the analyst's call #0 replayed with its recorded request (a changed one would not
        // match); from #1 on its calls have the new settings, the other agents' keep theirs
        expect(asked).toEqual([
          'research:analyst:answer 2 0.2 300',
          'research:summarize 2 undefined undefined',
          'plan 2 undefined undefined',
          'plan 3 undefined undefined',
        ]);
        expect(forked.trace.forkedFrom?.change).toEqual({
          kind: 'model',
          settings: { temperature: 0.2, maxOutputTokens: 300 },
        });
        // the fork's journal replays: its requests are asked again as they were recorded
        const replayed = await run(<Workflow />, {
          replay: await store.read(fork.runId),
          replayTools: true,
          fork: fork.options.fork,
          onApproval: approveAll,
          stream,
        }).result;
        expect(replayed.output).toBe(forked.output);
      });

      it('forks at a model call with another model for every agent', async () => {
        const { Workflow, calls, reset, modelB } = rig();
        const store = memoryJournalStore();
        const original = run(<Workflow />, { journal: store, onApproval: approveAll, stream });
        await original.result;
        reset();
        const fork = await forkRun(store, original.runId, {
          at: 'model plan#0.0/summarize#0.0/research:analyst:answer #1',
          change: { model: modelB, allAgents: true },
        });
        const forked = await run(<Workflow />, {
          ...fork.options,
          onApproval: approveAll,
          stream,
        }).result;
        expect(calls()).toEqual([
          'B research:analyst:answer 2',
          'B research:summarize 2',
          'B plan 2',
          'B plan 3',
        ]);
        expect(forked.output).toBe('B done after deployed to prod');
      });
    });
  }

  it('forks a fork, keeping the chain', async () => {
    const { Workflow, ran, calls, reset } = rig();
    const store = memoryJournalStore();
    const original = run(<Workflow />, { journal: store, onApproval: approveAll });
    await original.result;
    const first = await forkRun(store, original.runId, {
      at: 'tool fetch plan#0.0/summarize#0.0/answer#0.0',
      change: { result: 'page says: sold out' },
    });
    await run(<Workflow />, { ...first.options, onApproval: approveAll }).result;
    reset();
    const second = await forkRun(store, first.runId, {
      at: 'approval deploy plan#1.0',
      change: { answer: 'deny' },
    });
    const forked = await run(<Workflow />, second.options).result;
    // the first fork's changed result is part of the second fork's prefix
    expect(calls()).toEqual(['A plan 3']);
    expect(JSON.stringify(forked.trace)).toContain('A analysis of page says: sold out');
    expect(ran()).toEqual(['fetch https://x.test', 'deploy prod', 'deploy prod']);
    expect(forked.trace.forkedFrom).toEqual({
      runId: first.runId,
      record: 'approval deploy plan#1.0',
      change: { kind: 'answer', approved: false },
      forkedFrom: {
        runId: original.runId,
        record: 'tool fetch plan#0.0/summarize#0.0/answer#0.0',
        change: { kind: 'result', result: 'page says: sold out' },
      },
    });
  });

  it('forks a run stopped at an approval, answering it', async () => {
    const { Workflow, ran, calls, reset } = rig();
    const store = memoryJournalStore();
    const original = run(<Workflow />, { journal: store });
    await firstEvent(original, isApprovalRequest);
    original.abort();
    await original.result.catch(() => {});
    expect(ran()).toEqual(['fetch https://x.test']);
    const points = forkPoints(await store.read(original.runId));
    expect(points.at(-1)).toMatchObject({ name: 'approval deploy plan#1.0', type: 'approval' });
    reset();
    const fork = await forkRun(store, original.runId, {
      at: 'approval deploy plan#1.0',
      change: { answer: 'approve' },
    });
    const forked = await run(<Workflow />, fork.options).result;
    expect(forked.output).toBe('A done after deployed to prod');
    expect(calls()).toEqual(['A plan 3']);
    expect(ran()).toEqual(['fetch https://x.test', 'deploy prod']);
  });

  it('fails at the first record that no longer fits when the workflow changed, running no tool', async () => {
    const { Workflow, ran, reset } = rig();
    const store = memoryJournalStore();
    const original = run(<Workflow />, { journal: store, onApproval: approveAll });
    await original.result;
    reset();
    const fork = await forkRun(store, original.runId, {
      at: 'approval deploy plan#1.0',
      change: { answer: 'deny' },
    });
    function Changed() {
      return (
        <Agent model={rig().modelA}>
          <Step id="plan" prompt="Plan something else" />
        </Agent>
      );
    }
    const error = await run(<Changed />, { ...fork.options, workflow: 'Workflow' }).result.catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'journal-mismatch' });
    expect(ran()).toEqual(['fetch https://x.test', 'deploy prod']);
  });
});
