import { tool } from 'ai';
import {
  Agent,
  Budget,
  defineAgent,
  Guard,
  inspect,
  JuneError,
  memoryJournalStore,
  run,
  Step,
  subtreeCost,
  Tool,
  type RunEvent,
  type TraceNode,
} from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import BudgetedReport from '../../examples/budgets.js';

/** A search tool that counts how often it really ran. */
function searchTool() {
  const ran: string[] = [];
  const search = tool({
    description: 'Search the notes',
    inputSchema: z.object({ query: z.string() }),
    execute: async ({ query }) => {
      ran.push(query);
      return `3 notes about ${query}`;
    },
  });
  return { search, ran };
}

/** A writer whose defined agent `researcher` makes two calls in its child run, 500 tokens each. */
function Report(props: {
  search: ReturnType<typeof searchTool>['search'];
  tokens?: number;
  usd?: number;
  onExceed?: 'ask' | 'fail';
}) {
  const model = scriptedModel({ steps: {} });
  const Researcher = defineAgent({
    name: 'researcher',
    description: 'Finds what the notes say',
    input: z.object({ topic: z.string() }),
    model,
    prompt: ({ topic }) => `Find notes about ${topic}.`,
    capabilities: () => <Tool name="search" value={props.search} />,
  });
  return (
    <Budget
      name="research"
      {...(props.tokens !== undefined ? { tokens: props.tokens } : {})}
      {...(props.usd !== undefined ? { usd: props.usd } : {})}
      {...(props.onExceed ? { onExceed: props.onExceed } : {})}
    >
      <Agent model={model} name="writer">
        <Researcher />
        <Step id="report" prompt="Research, then report." />
      </Agent>
    </Budget>
  );
}

const usage = { inputTokens: 400, outputTokens: 100 };

function reportScript(name?: string) {
  return scriptedModel(
    {
      steps: {
        report: [
          { toolCalls: [{ tool: 'researcher', input: { topic: 'jsx' } }], usage },
          { text: 'Report: JSX is calls.', usage },
        ],
        'researcher:answer': [
          { toolCalls: [{ tool: 'search', input: { query: 'jsx' } }], usage },
          { text: 'JSX is calls.', usage },
        ],
      },
    },
    name ? { name } : {},
  );
}

/** The first node that matches, child runs of composite calls included. */
function find(node: TraceNode, match: (node: TraceNode) => boolean): TraceNode | undefined {
  if (match(node)) return node;
  const childRun = (node.output as { trace?: { root: TraceNode } } | undefined)?.trace?.root;
  for (const child of [...node.children, ...(childRun ? [childRun] : [])]) {
    const found = find(child, match);
    if (found) return found;
  }
  return undefined;
}

/** The model calls a run made (not answered from a record). */
function madeCalls(events: RunEvent[]): string[] {
  return events.flatMap((event) =>
    event.type === 'model-finish' && !event.replayed ? [event.step] : [],
  );
}

describe.each([
  { mode: 'streaming', stream: true },
  { mode: 'batch', stream: false },
])('<Budget> ($mode)', ({ stream }) => {
  it('a cap crossed in a defined agent’s child run waits for a person, and goes on once allowed', async () => {
    const { search, ran } = searchTool();
    const model = reportScript();
    // a catch-all policy does not answer a budget's request
    const handle = run(<Report search={search} tokens={1000} />, {
      model,
      stream,
      onApproval: () => true,
    });
    const events: RunEvent[] = [];
    for await (const event of handle.events) {
      events.push(event);
      if (event.type !== 'approval-request') continue;
      expect(event.request).toMatchObject({
        tool: 'june-budget',
        step: 'researcher:answer',
        budget: {
          name: 'research',
          declaration: '<Budget name="research" tokens={1000}>',
          spent: { tokens: 1000 },
          cap: { tokens: 1000 },
          more: { tokens: 1000 },
        },
      });
      // the whole run waits before the researcher's second call: two calls were made
      expect(model.calls.map((call) => call.step)).toEqual(['report', 'researcher:answer']);
      // and the waiting call has not started: no model node of it yet
      expect(events.flatMap((e) => (e.type === 'model-start' ? [e.step] : []))).toEqual([
        'report',
        'researcher:answer',
      ]);
      handle.approve(event.request.id, { answeredBy: 'ana' });
    }
    const result = await handle.result;
    expect(result.output).toBe('Report: JSX is calls.');
    expect(ran).toEqual(['jsx']);
    expect(model.calls.map((call) => call.step)).toEqual([
      'report',
      'researcher:answer',
      'researcher:answer',
      'report',
    ]);
    // the step shows the budget's cap and spending, and the request who answered it
    const step = find(result.trace.root, (node) => node.kind === 'step' && node.name === 'answer');
    expect(step?.budgets).toEqual([
      {
        budget: 'research',
        declaration: '<Budget name="research" tokens={1000}>',
        cap: { tokens: 1000 },
        spent: { tokens: 1000 },
        action: 'ask',
      },
      {
        budget: 'research',
        declaration: '<Budget name="research" tokens={1000}>',
        cap: { tokens: 1000 },
        spent: { tokens: 1000 },
        action: 'allow',
      },
    ]);
    const request = find(result.trace.root, (node) => node.name === 'june-budget');
    expect(request?.approval).toMatchObject({
      status: 'approved',
      answeredBy: 'ana',
      budget: { name: 'research' },
    });
    expect(events.filter((event) => event.type === 'budget')).toHaveLength(2);
    model.assertAllTurnsUsed();
  });

  it('onExceed="fail" fails the run before the call, naming the budget and what was spent', async () => {
    const { search, ran } = searchTool();
    const handle = run(<Report search={search} tokens={1000} onExceed="fail" />, {
      model: reportScript(),
      stream,
    });
    const events: RunEvent[] = [];
    for await (const event of handle.events) events.push(event);
    const cause = (await handle.result.catch((caught: unknown) => caught)) as JuneError;
    // the whole run fails with it: the composite tool does not turn it into a tool error
    expect(JuneError.isInstance(cause) && cause.code).toBe('budget-exceeded');
    expect(cause.message).toMatch(
      /^june: the budget "research" \(<Budget name="research" tokens=\{1000\}>( at [^)]+)?\) is spent: the model calls beneath it spent 1,000 tokens of 1,000 tokens, and its onExceed is "fail"; the next model call of step "researcher:answer" does not start\.$/,
    );
    expect(cause.details).toMatchObject({ budget: 'research', spent: { tokens: 1000 } });
    // the search ran (its call came before the cap); no model call after the cap did
    expect(ran).toEqual(['jsx']);
    expect(madeCalls(events)).toEqual(['researcher:answer']);
  });

  it('a denial fails the run with budget-exceeded', async () => {
    const { search } = searchTool();
    const handle = run(<Report search={search} tokens={1000} />, { model: reportScript(), stream });
    for await (const event of handle.events)
      if (event.type === 'approval-request') handle.deny(event.request.id, 'too dear');
    const error = (await handle.result.catch((caught: unknown) => caught)) as JuneError;
    expect(error.code).toBe('budget-exceeded');
    expect(error.message).toContain('more was denied: too dear');
  });

  it('a replay counts the recorded calls the same, and gets the recorded answer without asking', async () => {
    const store = memoryJournalStore();
    const { search } = searchTool();
    const prices = { 'june:priced': { inputPerMTok: 1, outputPerMTok: 10 } };
    const first = run(<Report search={search} usd={0.002} />, {
      model: reportScript('priced'),
      stream,
      journal: store,
      prices,
      onApproval: () => true,
      guardEscalations: 'on-approval',
    });
    const recorded = await first.result;
    const asked = find(
      recorded.trace.root,
      (node) => node.kind === 'step' && node.name === 'answer',
    )?.budgets;
    // 400 tokens in at $1 and 100 out at $10 per million: $0.0014 a call, two calls before the ask
    expect(asked?.[0]).toMatchObject({
      cap: { usd: 0.002 },
      spent: { usd: 0.0028 },
      action: 'ask',
    });

    const replay = run(<Report search={searchTool().search} usd={0.002} />, {
      model: reportScript('priced'),
      stream,
      replay: await store.read(first.runId),
      prices: { 'june:priced': { inputPerMTok: 50, outputPerMTok: 500 } },
    });
    const events: RunEvent[] = [];
    for await (const event of replay.events) events.push(event);
    const replayed = await replay.result;
    expect(madeCalls(events)).toEqual([]);
    expect(subtreeCost(replayed.trace.root).usd).toBeCloseTo(
      subtreeCost(recorded.trace.root).usd!,
      12,
    );
    const again = find(
      replayed.trace.root,
      (node) => node.kind === 'step' && node.name === 'answer',
    )?.budgets;
    expect(again).toEqual([asked![0], { ...asked![1], replayed: true }]);
  });
});

it('a usd budget over a model with no price is refused before the first model call', async () => {
  const { search, ran } = searchTool();
  const events: RunEvent[] = [];
  const handle = run(<Report search={search} usd={1} />, { model: reportScript() });
  const error = (await handle.result.catch((caught: unknown) => caught)) as JuneError;
  for await (const event of handle.events) events.push(event);
  expect(error.code).toBe('budget-price-unknown');
  expect(error.message).toMatch(
    /^june: <Budget name="research" usd=\{1\}>.* caps what the model calls beneath it cost in USD, but the model of <Agent name="writer">.* \(june:scripted\) has no known price/,
  );
  expect(madeCalls(events)).toEqual([]);
  expect(ran).toEqual([]);
  // with its price, it runs
  const priced = await run(<Report search={search} usd={1} />, {
    model: reportScript(),
    prices: { 'june:scripted': { inputPerMTok: 1, outputPerMTok: 1 } },
  }).result;
  expect(priced.output).toBe('Report: JSX is calls.');
});

it('inspect() lists the budgets over each tool and agent', async () => {
  const report = await inspect(<BudgetedReport />);
  expect(report.agents[0]).toMatchObject({
    path: 'writer',
    budgets: ['<Budget name="research" tokens={1500}>'],
    tools: [{ name: 'researcher', budgets: ['<Budget name="research" tokens={1500}>'] }],
  });
});

it('a budget without a cap is refused', async () => {
  const model = reportScript();
  const error = (await run(
    // @ts-expect-error -- no cap at all is what is checked here
    <Budget name="x" tokens="many">
      <Agent model={model}>
        <Step id="report" prompt="go" />
      </Agent>
    </Budget>,
    { model },
  ).result.catch((caught: unknown) => caught)) as JuneError;
  expect(error.code).toBe('budget-invalid');
  expect(error.message).toContain('tokens={"many"}; a budget\'s tokens is a number above 0');
});

it('the example: the researcher’s second call waits for a person, then the report is written', async () => {
  const model = scriptedModel('examples/budgets.script.json');
  const handle = run(<BudgetedReport />, { model, onApproval: () => true });
  const asked: unknown[] = [];
  for await (const event of handle.events) {
    if (event.type !== 'approval-request') continue;
    asked.push(event.request.budget);
    handle.approve(event.request.id, { answeredBy: 'ana' });
  }
  const result = await handle.result;
  expect(asked).toEqual([
    {
      name: 'research',
      declaration: '<Budget name="research" tokens={1500}>',
      spent: { tokens: 1550 },
      cap: { tokens: 1500 },
      more: { tokens: 1500 },
    },
  ]);
  expect(result.output).toBe(
    "JSX runtimes turn JSX into function calls.\nJune's runtime walks the tree as a workflow.",
  );
  model.assertAllTurnsUsed();
});

it("a guard judge's calls count toward the budgets over the step it checks", async () => {
  const model = scriptedModel({
    steps: {
      ship: [{ text: 'shipped', usage: { inputTokens: 40, outputTokens: 10 } }],
      'ship@tone': [{ object: { action: 'allow' }, usage: { inputTokens: 90, outputTokens: 10 } }],
      notes: [{ text: 'noted', usage: { inputTokens: 40, outputTokens: 10 } }],
      'notes@tone': [{ object: { action: 'allow' } }],
    },
  });
  const handle = run(
    <Budget name="b" tokens={150}>
      <Guard name="tone" on={['output']} judge={{ model, instructions: 'Be polite.' }}>
        <Agent model={model}>
          <Step id="ship" prompt="Ship" />
          <Step id="notes" prompt="Notes" />
        </Agent>
      </Guard>
    </Budget>,
    { model },
  );
  const spent: unknown[] = [];
  for await (const event of handle.events)
    if (event.type === 'approval-request') {
      spent.push([event.request.step, event.request.budget?.spent]);
      handle.approve(event.request.id);
    }
  await handle.result;
  // 50 tokens of the step and 100 of its judge: the next step's call asks first
  expect(spent).toEqual([['notes', { tokens: 150 }]]);
});

it("a guard judge's call waits for a spent budget like a step's", async () => {
  const model = scriptedModel({
    steps: {
      ship: [{ text: 'shipped', usage: { inputTokens: 40, outputTokens: 10 } }],
      'ship@tone': [{ object: { action: 'allow' }, usage: { inputTokens: 90, outputTokens: 10 } }],
      notes: [{ text: 'noted', usage: { inputTokens: 40, outputTokens: 10 } }],
      'notes@tone': [{ object: { action: 'allow' } }],
    },
  });
  const handle = run(
    <Budget name="b" tokens={50}>
      <Guard name="tone" on={['output']} judge={{ model, instructions: 'Be polite.' }}>
        <Agent model={model}>
          <Step id="ship" prompt="Ship" />
          <Step id="notes" prompt="Notes" />
        </Agent>
      </Guard>
    </Budget>,
    { model },
  );
  const spent: unknown[] = [];
  for await (const event of handle.events)
    if (event.type === 'approval-request') {
      spent.push([event.request.step, event.request.budget?.spent, event.request.budget?.cap]);
      handle.approve(event.request.id);
    }
  await handle.result;
  // the step spent the cap: its judge's call asks first; the next step's call, 150 spent,
  // asks until the cap passes what was spent (one budget's worth each time); then its judge
  expect(spent).toEqual([
    ['ship', { tokens: 50 }, { tokens: 50 }],
    ['notes', { tokens: 150 }, { tokens: 100 }],
    ['notes', { tokens: 150 }, { tokens: 150 }],
    ['notes', { tokens: 200 }, { tokens: 200 }],
  ]);
});
