import { tool } from 'ai';
import {
  Agent,
  Catch,
  inspect,
  JuneError,
  memoryJournalStore,
  Parallel,
  run,
  Step,
  Tool,
  type ApprovalRequest,
  type RunHandle,
  type TraceNode,
} from 'june';
import { scriptedModel, type ScriptTurn } from 'june/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { allNodes } from '../resources/support.js';

const items = ['a', 'b', 'c', 'd', 'e'];

/** Each item's step calls `work` for it, then says it is done. */
function itemScript(overrides: Record<string, ScriptTurn[]> = {}) {
  const steps: Record<string, ScriptTurn[]> = { sum: [{ text: 'all done' }] };
  for (const item of items) {
    steps[`do-${item}`] = overrides[item] ?? [
      { toolCalls: [{ tool: 'work', input: { item } }] },
      { text: `${item} done` },
    ];
  }
  return steps;
}

/**
 * A `work` tool that counts how many of its calls run at once. Each call waits until
 * `together` calls run (or every call of the run has started), so a limit that let fewer
 * run at once would never finish, and one that let more would show in `most`.
 */
function workTool(together: number, total: number, fail: string[] = []) {
  const state = { running: 0, most: 0, started: 0, ran: [] as string[] };
  const waiting: Array<() => void> = [];
  const wake = () => {
    if (state.running >= together || state.started === total)
      for (const resolve of waiting.splice(0)) resolve();
  };
  const work = tool({
    description: 'Work on an item',
    inputSchema: z.object({ item: z.string() }),
    execute: async ({ item }, { abortSignal }) => {
      state.running++;
      state.started++;
      state.most = Math.max(state.most, state.running);
      state.ran.push(item);
      try {
        await new Promise<void>((resolve, reject) => {
          waiting.push(resolve);
          abortSignal?.addEventListener('abort', () => reject(abortSignal.reason as Error));
          wake();
        });
        if (fail.includes(item)) throw new Error(`${item} broke`);
        return `${item} worked`;
      } finally {
        state.running--;
      }
    },
  });
  return { work, state };
}

function Fan({ model, work, limit, mode }: FanProps) {
  return (
    <Agent model={model}>
      <Tool name="work" value={work} />
      <Parallel {...(limit ? { limit } : {})} {...(mode ? { mode } : {})}>
        {items.map((item) => (
          <Step key={item} id={`do-${item}`} prompt={`Do ${item}`} />
        ))}
      </Parallel>
      <Step id="sum" prompt="Sum up" />
    </Agent>
  );
}

interface FanProps {
  model: ReturnType<typeof scriptedModel>;
  work: ReturnType<typeof workTool>['work'];
  limit?: number;
  mode?: 'fail-fast' | 'settle-all';
}

const byKind = (root: TraceNode, kind: TraceNode['kind']) =>
  allNodes(root).filter((node) => node.kind === kind);

describe('<Parallel>', () => {
  for (const stream of [true, false]) {
    test(`runs its branches at once, joins them in declaration order (${stream ? 'streaming' : 'batch'})`, async () => {
      const model = scriptedModel({ steps: itemScript() });
      const { work, state } = workTool(5, 5);
      const result = await run(<Fan model={model} work={work} />, { stream }).result;

      expect(state.most).toBe(5);
      expect(result.steps).toMatchObject({
        'do-a': 'a done',
        'do-e': 'e done',
        sum: 'all done',
      });
      // the summing step's conversation: each branch's exchange in declaration order
      const sum = model.calls.find((call) => call.step === 'sum')!;
      const users = sum.prompt
        .filter((message) => message.role === 'user')
        .map((message) => (message.content as Array<{ text: string }>)[0]!.text);
      expect(users).toEqual(['Do a', 'Do b', 'Do c', 'Do d', 'Do e', 'Sum up']);
      const roles = sum.prompt.map((message) => message.role);
      expect(roles).toEqual([
        ...items.flatMap(() => ['user', 'assistant', 'tool', 'assistant']),
        'user',
      ]);
      const [parallel] = byKind(result.trace.root, 'parallel');
      expect(parallel).toMatchObject({
        status: 'succeeded',
        branches: items,
        mode: 'fail-fast',
      });
      expect(parallel!.children.map((node) => [node.kind, node.name, node.status])).toEqual(
        items.map((item) => ['branch', item, 'succeeded']),
      );
      expect(parallel!.children[1]!.children.map((node) => [node.kind, node.name])).toEqual([
        ['step', 'do-b'],
      ]);
    });
  }

  test('limit: at most `limit` branches run at once', async () => {
    const model = scriptedModel({ steps: itemScript() });
    const { work, state } = workTool(2, 5);
    const result = await run(<Fan model={model} work={work} limit={2} />).result;
    expect(state.most).toBe(2);
    expect(state.ran).toHaveLength(5);
    expect(byKind(result.trace.root, 'parallel')[0]!.limit).toBe(2);
  });

  test.each([true, false])(
    'fail-fast: the first failure aborts the other branches and fails the run with its error (stream: %s)',
    async (stream) => {
      const model = scriptedModel({
        steps: itemScript({ c: [{ error: 'the provider is down' }] }),
      });
      const { work, state } = workTool(5, 5);
      const error = await run(<Fan model={model} work={work} />, { stream }).result.catch(
        (e: unknown) => e,
      );
      expect(JuneError.isInstance(error) && error.code).toBe('scripted-model-error');
      const trace = (error as { trace: { root: TraceNode } }).trace;
      const [parallel] = byKind(trace.root, 'parallel');
      expect(parallel!.status).toBe('failed');
      const statuses = Object.fromEntries(
        parallel!.children.map((branch) => [branch.name, branch.status]),
      );
      expect(statuses).toEqual({
        a: 'aborted',
        b: 'aborted',
        c: 'failed',
        d: 'aborted',
        e: 'aborted',
      });
      // no tool finished, and the step after the join never ran
      expect(state.ran.length).toBeLessThanOrEqual(4);
      expect(model.calls.some((call) => call.step === 'sum')).toBe(false);
      expect(byKind(trace.root, 'tool').every((node) => node.status !== 'succeeded')).toBe(true);
    },
  );

  test.each([true, false])(
    'settle-all: every branch finishes, then one error names the branches that failed (stream: %s)',
    async (stream) => {
      const model = scriptedModel({
        steps: itemScript({
          b: [{ error: 'the provider is down' }],
          d: [{ error: 'the provider is overloaded' }],
        }),
      });
      const { work, state } = workTool(3, 3);
      const error = await run(<Fan model={model} work={work} mode="settle-all" />, {
        stream,
      }).result.catch((e: unknown) => e);
      expect(JuneError.isInstance(error) && error.code).toBe('parallel-failed');
      const failure = error as JuneError;
      expect(failure.message).toMatch(
        /^june: 2 of 5 branches of <Parallel>.* failed: "b" \(.*the provider is down\), "d" \(.*the provider is overloaded\)\.$/,
      );
      expect(failure.details).toEqual({
        failed: [
          { branch: 'b', code: 'scripted-model-error', message: expect.any(String) },
          { branch: 'd', code: 'scripted-model-error', message: expect.any(String) },
        ],
      });
      expect(state.ran.sort()).toEqual(['a', 'c', 'e']);
      const trace = (error as { trace: { root: TraceNode } }).trace;
      const [parallel] = byKind(trace.root, 'parallel');
      expect(parallel!.children.map((branch) => branch.status)).toEqual([
        'succeeded',
        'failed',
        'succeeded',
        'failed',
        'succeeded',
      ]);
    },
  );

  test('<Catch> inside a branch retries that branch only; its sibling keeps its result', async () => {
    const model = scriptedModel({
      steps: {
        flaky: [{ error: 'the provider is overloaded' }, { text: 'flaky at last' }],
        steady: [{ text: 'steady' }],
        after: [{ text: 'after' }],
      },
    });
    const result = await run(
      <Agent model={model}>
        <Parallel>
          <Catch key="flaky" retries={1}>
            <Step id="flaky" prompt="Try" />
          </Catch>
          <Step key="steady" id="steady" prompt="Stay" />
        </Parallel>
        <Step
          id="after"
          prompt={({ steps }) => `Got ${String(steps.flaky)} and ${String(steps.steady)}`}
        />
      </Agent>,
    ).result;
    expect(result.steps).toEqual({ flaky: 'flaky at last', steady: 'steady', after: 'after' });
    const after = model.calls.find((call) => call.step === 'after')!;
    expect(JSON.stringify(after.prompt.at(-1))).toContain('Got flaky at last and steady');
    const [parallel] = byKind(result.trace.root, 'parallel');
    expect(parallel!.children[0]!.children.map((node) => [node.name, node.status])).toEqual([
      ['attempt 1', 'failed'],
      ['attempt 2', 'succeeded'],
    ]);
  });

  test('aborting the run aborts every branch, approvals waiting in them withdrawn', async () => {
    const model = scriptedModel({
      steps: {
        x: [{ toolCalls: [{ tool: 'deploy', input: { env: 'x' } }] }, { text: 'x' }],
        y: [{ toolCalls: [{ tool: 'deploy', input: { env: 'y' } }] }, { text: 'y' }],
      },
    });
    const deploy = tool({
      description: 'Deploy',
      inputSchema: z.object({ env: z.string() }),
      needsApproval: true,
      execute: async ({ env }) => `deployed ${env}`,
    });
    const handle = run(
      <Agent model={model}>
        <Tool name="deploy" value={deploy} />
        <Parallel>
          <Step key="x" id="x" prompt="Deploy x" />
          <Step key="y" id="y" prompt="Deploy y" />
        </Parallel>
      </Agent>,
    );
    const requests = await pendingTogether(handle, 2);
    expect(requests.map((request) => request.step).sort()).toEqual(['x', 'y']);
    handle.abort('stop');
    const error = await handle.result.catch((e: unknown) => e);
    expect(JuneError.isInstance(error) && error.code).toBe('run-aborted');
    const trace = (error as { trace: { root: TraceNode } }).trace;
    expect(byKind(trace.root, 'branch').map((node) => node.status)).toEqual(['aborted', 'aborted']);
    expect(handle.pendingApprovals).toEqual([]);
  });

  test('approvals of every branch wait together, each keyed by its branch', async () => {
    const model = scriptedModel({ steps: itemScript() });
    const ran: string[] = [];
    const work = tool({
      description: 'Work on an item',
      inputSchema: z.object({ item: z.string() }),
      needsApproval: ({ item }) => item === 'b' || item === 'd',
      execute: async ({ item }) => {
        ran.push(item);
        return `${item} worked`;
      },
    });
    const handle = run(<Fan model={model} work={work} />);
    const requests = await pendingTogether(handle, 2);
    expect(requests.map((request) => request.key).sort()).toEqual([
      expect.stringMatching(new RegExp(`^${handle.runId}/\\[b\\]/do-b#`)),
      expect.stringMatching(new RegExp(`^${handle.runId}/\\[d\\]/do-d#`)),
    ]);
    for (const request of requests) handle.approve(request.id);
    const result = await handle.result;
    expect(result.steps.sum).toBe('all done');
    expect(ran.sort()).toEqual(items);
  });

  test('agents as branches, each calling a composite tool: child runs sit under their own calls, recorded by branch', async () => {
    const model = scriptedModel({
      steps: {
        'ask-x': [{ toolCalls: [{ tool: 'fetch', input: { item: 'x' } }] }, { text: 'x fetched' }],
        'ask-y': [{ toolCalls: [{ tool: 'fetch', input: { item: 'y' } }] }, { text: 'y fetched' }],
        'fetch:get': [{ text: 'got one' }, { text: 'got another' }],
      },
    });
    const Asker = ({ item }: { item: string }) => (
      <Agent name={`asker-${item}`} model={model}>
        <Tool name="fetch" description="Fetch an item" input={z.object({ item: z.string() })}>
          {({ item: fetched }) => (
            <Agent model={model}>
              <Step id="get" prompt={`Get ${fetched}`} />
            </Agent>
          )}
        </Tool>
        <Step id={`ask-${item}`} prompt={`Ask for ${item}`} />
      </Agent>
    );
    const store = memoryJournalStore();
    const handle = run(
      <Parallel>
        <Asker key="x" item="x" />
        <Asker key="y" item="y" />
      </Parallel>,
      { journal: store },
    );
    const result = await handle.result;
    expect(result.steps).toEqual({ 'ask-x': 'x fetched', 'ask-y': 'y fetched' });
    const [parallel] = byKind(result.trace.root, 'parallel');
    for (const [index, item] of ['x', 'y'].entries()) {
      const branch = parallel!.children[index]!;
      expect(branch.children.map((node) => [node.kind, node.name])).toEqual([
        ['agent', `asker-${item}`],
      ]);
      const call = byKind(branch, 'tool')[0]!;
      expect(call).toMatchObject({ name: 'fetch', input: { item }, status: 'succeeded' });
      const child = (call.output as { trace: { root: TraceNode } }).trace.root;
      expect(byKind(child, 'step').map((node) => node.prompt)).toEqual([`Get ${item}`]);
    }
    // the child runs' model calls are recorded under their branch and composite call
    const records = await store.read(handle.runId);
    const places = records
      .filter((record) => record.type === 'model-call' && record.step === 'fetch:get')
      .map((record) => (record as { calls?: string[] }).calls)
      .sort();
    expect(places).toEqual([
      ['[x]', 'ask-x#0.0'],
      ['[y]', 'ask-y#0.0'],
    ]);
  });

  test('a branch whose conversation is compacted still joins its whole exchange', async () => {
    const model = scriptedModel({
      steps: {
        x1: [{ text: 'x one' }],
        x2: [{ text: 'x two' }],
        x3: [{ text: 'x three' }],
        y1: [{ text: 'y one' }],
        after: [{ text: 'after' }],
        'notes@compact': [{ text: 'summary of x1 and x2' }, { text: 'summary of everything' }],
      },
    });
    const result = await run(
      <Agent name="notes" model={model} compact={{ maxMessages: 3, keep: 0 }}>
        <Parallel>
          <>
            <Step id="x1" prompt="Do x1" />
            <Step id="x2" prompt="Do x2" />
            <Step id="x3" prompt="Do x3" />
          </>
          <Step id="y1" prompt="Do y1" />
        </Parallel>
        <Step id="after" prompt="After" />
      </Agent>,
    ).result;
    expect(result.steps.after).toBe('after');
    // the second summary, before "after", summarized every branch's own messages, in order
    const summaries = model.calls.filter((call) => call.step === 'notes@compact');
    expect(summaries).toHaveLength(2);
    const summarized = JSON.stringify(summaries[1]!.prompt);
    const said = ['Do x1', 'x one', 'Do x2', 'x two', 'Do x3', 'x three', 'Do y1', 'y one'];
    const order = said.map((text) => summarized.indexOf(text));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(summarized).not.toContain('summary of x1 and x2');
  });

  test('nested: a branch holding a <Parallel> of its own records its calls under both keys', async () => {
    const model = scriptedModel({
      steps: {
        one: [{ text: '1' }],
        two: [{ text: '2' }],
        three: [{ text: '3' }],
      },
    });
    const store = memoryJournalStore();
    const handle = run(
      <Agent model={model}>
        <Parallel>
          <Parallel key="pair" limit={1}>
            <Step id="one" prompt="One" />
            <Step id="two" prompt="Two" />
          </Parallel>
          <Step key="solo" id="three" prompt="Three" />
        </Parallel>
      </Agent>,
      { journal: store },
    );
    const result = await handle.result;
    expect(result.steps).toEqual({ one: '1', two: '2', three: '3' });
    const [outer] = byKind(result.trace.root, 'parallel');
    expect(outer!.children.map((branch) => branch.name)).toEqual(['pair', 'solo']);
    expect(outer!.children[0]!.children[0]).toMatchObject({
      kind: 'parallel',
      branches: ['0', '1'],
      limit: 1,
    });
    const places = (await store.read(handle.runId))
      .filter((record) => record.type === 'model-call')
      .map((record) => [(record as { step: string }).step, (record as { calls?: string[] }).calls])
      .sort();
    expect(places).toEqual([
      ['one', ['[pair]', '[0]']],
      ['three', ['[solo]']],
      ['two', ['[pair]', '[1]']],
    ]);
  });

  test('with a journal, approvals waiting in two branches at an interruption are asked again under the same keys on resume', async () => {
    const ran: string[] = [];
    const work = tool({
      description: 'Work on an item',
      inputSchema: z.object({ item: z.string() }),
      needsApproval: ({ item }) => item === 'b' || item === 'd',
      execute: async ({ item }) => {
        ran.push(item);
        return `${item} worked`;
      },
    });
    const store = memoryJournalStore();
    const first = scriptedModel({ steps: itemScript() });
    const handle = run(<Fan model={first} work={work} />, { journal: store });
    const asked = (await pendingTogether(handle, 2)).map((request) => request.key).sort();
    expect(asked).toEqual([`${handle.runId}/[b]/do-b#0.0`, `${handle.runId}/[d]/do-d#0.0`]);
    await eventually(() => ran.length === 3);
    handle.abort('the process stopped');
    await handle.result.catch(() => {});
    expect(ran.sort()).toEqual(['a', 'c', 'e']);

    // the resumed run's model is asked only what the record does not hold: b's and d's second turns
    const second = scriptedModel({
      steps: itemScript({ b: [{ text: 'b done' }], d: [{ text: 'd done' }] }),
    });
    const keys: string[] = [];
    const resumed = await run(<Fan model={second} work={work} />, {
      journal: store,
      resume: handle.runId,
      onApproval: (request) => {
        keys.push(request.key!);
        return true;
      },
    }).result;
    expect(keys.sort()).toEqual(asked);
    expect(resumed.steps.sum).toBe('all done');
    // the finished branches ran nothing again; b and d asked their model once more, after their tools
    expect(ran.sort()).toEqual(items);
    expect(second.calls.map((call) => call.step).sort()).toEqual(['do-b', 'do-d', 'sum']);
  });

  test('inspect() reports the agents of every branch, each with its branch', async () => {
    const model = scriptedModel({ steps: itemScript() });
    const { work } = workTool(5, 5);
    const Reviewer = ({ file }: { file: string }) => (
      <Agent name="reviewer" model={model}>
        <Tool name="work" value={work} />
        <Step id={`review-${file}`} prompt={`Review ${file}`} />
      </Agent>
    );
    const report = await inspect(
      <Agent name="lead" model={model}>
        <Parallel>
          {['x.ts', 'y.ts'].map((file) => (
            <Reviewer key={file} file={file} />
          ))}
          <Step id="alone" prompt="Alone" />
        </Parallel>
      </Agent>,
    );
    expect(report.agents.map((agent) => [agent.path, agent.branch])).toEqual([
      ['lead', undefined],
      ['lead > reviewer', 'x.ts'],
      ['lead > reviewer', 'y.ts'],
    ]);
  });

  test('two branches with one key are refused before any model call', async () => {
    const model = scriptedModel({ steps: itemScript() });
    const error = await run(
      <Agent model={model}>
        <Parallel>
          <Step key="same" id="one" prompt="1" />
          <Step key="same" id="two" prompt="2" />
        </Parallel>
      </Agent>,
    ).result.catch((e: unknown) => e);
    expect(JuneError.isInstance(error) && error.code).toBe('parallel-key-duplicate');
    expect(model.calls).toEqual([]);
  });
});

/** Resolves once `condition` holds (checked as the event loop turns; fails after 10 s). */
async function eventually(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('gave up waiting');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Waits until `count` approval requests are pending at once; returns them. */
async function pendingTogether(handle: RunHandle, count: number): Promise<ApprovalRequest[]> {
  for await (const event of handle.events) {
    if (event.type !== 'approval-request') continue;
    const pending = handle.pendingApprovals;
    if (pending.length >= count) return pending;
  }
  throw new Error(`the run ended before ${count} approvals waited together`);
}
